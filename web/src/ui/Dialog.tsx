// A modal dialog on the browser's own <dialog>: it keeps the focus inside, Escape closes it, and
// the focus returns where it was.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

interface DialogProps {
  id: string;
  title: string;
  onClose: () => void;
  closeLabel: string;
  wide?: boolean;
  data?: Record<string, string>;
  children: ComponentChildren;
}

export function Dialog({ id, title, onClose, closeLabel, wide, data, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Modal in the frame it appears: no click meant for the page lands in between.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(data ?? {})) attrs[`data-${key}`] = value;
  return (
    <dialog
      id={id}
      ref={ref}
      class={`dialog${wide ? " wide" : ""}`}
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      {...attrs}
    >
      <header class="dialog-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" class="icon-button" aria-label={closeLabel} onClick={onClose}>
          ✕
        </button>
      </header>
      <div class="dialog-body">{children}</div>
    </dialog>
  );
}
