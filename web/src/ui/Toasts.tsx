// The events that touched this seat, as a stack of short notes: announced to screen readers
// (a polite live region), each dismissable, going by themselves after a while (game/useWhatHappened).
import type { Toast } from "../game/happened";
import type { Translate } from "../i18n";
import "./seen.css";

export function Toasts({ toasts, dismiss, t }: { toasts: Toast[]; dismiss: (id: number) => void; t: Translate }) {
  return (
    <section id="toasts" class="toasts" aria-label={t("toastsLabel")} aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <div class="toast" key={toast.id} data-event={toast.id}>
          <span class="toast-text">{toast.text}</span>
          <button type="button" class="icon-button toast-close" aria-label={t("dismiss")} onClick={() => dismiss(toast.id)}>
            ✕
          </button>
        </div>
      ))}
    </section>
  );
}
