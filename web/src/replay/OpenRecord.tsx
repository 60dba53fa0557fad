// "Open a record file": a game record (what `apokalypse replay` reads, or a finished game's
// "Download record") read in the page and sent to the server to be replayed.
import type { Translate } from "../i18n";

export interface Opened {
  name: string;
  bytes: ArrayBuffer;
}

export function OpenRecord({ onOpen, t }: { onOpen: (file: Opened) => void; t: Translate }) {
  const pick = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (file === undefined) return;
    file
      .arrayBuffer()
      .then((bytes) => onOpen({ name: file.name, bytes }))
      .catch(() => undefined);
    input.value = ""; // the same file may be opened again
  };
  return (
    <label class="replay-open button ghost">
      <span>{t("replayOpenFile")}</span>
      <input type="file" id="open-record" accept=".json,application/json" onChange={pick} />
    </label>
  );
}
