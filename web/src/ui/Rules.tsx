// Rules help from the server (GET /api/rules/{game}?lang=..[&card=CODE]): the same text as the
// terminal's `rules` command, shown with its line breaks.
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { GameName, Lang } from "../protocol";
import { Dialog } from "./Dialog";

interface RulesProps {
  game: GameName;
  lang: Lang;
  card?: string | undefined;
  title: string;
  onClose: () => void;
  t: Translate;
}

export function RulesDialog({ game, lang, card, title, onClose, t }: RulesProps) {
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const query = new URLSearchParams({ lang });
    if (card) query.set("card", card);
    let live = true;
    fetch(`/api/rules/${game}?${query.toString()}`)
      .then(async (response) => {
        const data = (await response.json()) as { text?: string; detail?: string };
        if (!live) return;
        if (response.ok && typeof data.text === "string") setText(data.text);
        else {
          setText(data.detail ?? response.statusText);
          setFailed(true);
        }
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [game, lang, card]);
  return (
    <Dialog id="rules" title={title} onClose={onClose} closeLabel={t("close")} wide>
      <div class={`rules-text${failed ? " failed" : ""}`} data-loaded={text !== null ? "yes" : "no"}>
        {text ?? (failed ? "–" : t("loading"))}
      </div>
    </Dialog>
  );
}
