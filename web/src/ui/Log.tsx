// The game log: the server's sentences for every event this viewer may know of, newest last.
// A line points at what its event moved (hover, focus or click it: those cards light up), and
// on a narrow screen the log is a drawer over the board (game/seen.ts, ui/seen.css).
import { useEffect, useRef } from "preact/hooks";
import { useSeen } from "../game/seen";
import type { Translate } from "../i18n";
import "./seen.css";

export function Log({ lines, events, t }: { lines: string[]; events?: readonly number[]; t: Translate }) {
  const list = useRef<HTMLOListElement>(null);
  const seen = useSeen();
  const open = seen?.logOpen ?? false;
  useEffect(() => {
    const node = list.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [lines.length, open]);
  const point = (index: number | undefined, reveal = false) => seen?.point(index ?? null, reveal);
  // Up and down walk the lines (each one can take the focus; only the list is in the Tab order).
  const walk = (event: KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const items = Array.from(list.current?.querySelectorAll<HTMLElement>("li") ?? []);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === "ArrowDown" ? (at < 0 ? items.length - 1 : at + 1) : at < 0 ? items.length - 1 : at - 1;
    items[Math.max(0, Math.min(items.length - 1, next))]?.focus();
    event.preventDefault();
  };
  return (
    <section class={`panel log-panel${open ? " open" : ""}`} id="log-panel" aria-label={t("log")}>
      <h2 class="box-title">
        {t("log")}
        {seen ? (
          <button type="button" class="icon-button log-close" id="log-close" aria-label={t("closeLog")} onClick={() => seen.setLogOpen(false)}>
            ✕
          </button>
        ) : null}
      </h2>
      <ol id="log" class="log" ref={list} tabIndex={0} onKeyDown={walk}>
        {lines.map((line, i) => {
          const index = events?.[i];
          return (
            <li
              data-event={index}
              tabIndex={-1}
              onMouseEnter={() => point(index)}
              onMouseLeave={() => point(undefined)}
              onFocus={() => point(index)}
              onBlur={() => point(undefined)}
              onClick={() => point(index, true)}
            >
              {line}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
