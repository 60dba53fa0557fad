// The game log: the server's sentences for every event this viewer may know of, newest last.
import { useEffect, useRef } from "preact/hooks";
import type { Translate } from "../i18n";

export function Log({ lines, t }: { lines: string[]; t: Translate }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const node = list.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [lines.length]);
  return (
    <section class="panel log-panel" aria-label={t("log")}>
      <h2 class="box-title">{t("log")}</h2>
      <ol id="log" class="log" ref={list} tabIndex={0}>
        {lines.map((line) => (
          <li>{line}</li>
        ))}
      </ol>
    </section>
  );
}
