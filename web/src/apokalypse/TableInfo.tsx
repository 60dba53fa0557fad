// The table's public state: round, the next horseman and how many cards lie above it in each
// deck, discards, the seals left, and an attack waiting for defence.
import { Icon } from "../ui/icons";
import { cardName } from "./Card";
import { HORSEMAN_ICON } from "./cardLook";
import { horsemanTitle, useTable } from "./context";

export function TableInfo() {
  const { obs, t, facts, name } = useTable();
  const horseman = Math.min(obs.horseman, 4);
  return (
    <section class="panel table-info" aria-label={t("decks")}>
      {obs.result ? null : (
      <div class="next-horseman" data-horseman={horseman}>
        <span class="rider">
          <Icon name="horse" size={30} />
          <span class="rider-number">{horseman}</span>
        </span>
        <span>
          <small>{t("nextHorseman")}</small>
          <strong>{horsemanTitle(t, horseman)}</strong>
          <span class="needs">
            {HORSEMAN_ICON[horseman] ? (
              <>
                <Icon name={HORSEMAN_ICON[horseman]} size={16} /> / <Icon name="music" size={16} />
              </>
            ) : (
              <>
                <Icon name="mask" size={16} />
                <Icon name="helmet" size={16} />
                <Icon name="pig" size={16} /> / <Icon name="music" size={16} />
              </>
            )}
          </span>
        </span>
      </div>
      )}
      <div class="decks">
        {obs.decks.map((deck) => (
          <div class={`deck deck-${deck.back}`} data-back={deck.back}>
            <span class="deck-back">{deck.back}</span>
            <span class="deck-size">
              <strong>{deck.size}</strong> {t("cards")}
            </span>
            <span class="deck-above" data-above={deck.above_horseman}>
              <strong>{deck.above_horseman}</strong> {t("untilHorseman")}
            </span>
          </div>
        ))}
        <div class="deck seals">
          <Icon name="seal" size={22} />
          <span>
            {t("seals")}: {t("sealsLeft", { n: obs.seal_supply })}
          </span>
          <span class="discards">
            {t("discards")}: B {obs.discards[0]?.length ?? 0} · K {obs.discards[1]?.length ?? 0}
          </span>
        </div>
      </div>
      {obs.attack ? (
        <p class="attack" id="attack">
          <Icon name={obs.attack.card === "violence" ? "sword" : "swap"} size={16} /> {t("attackOnTable")}: <strong>{cardName(obs.attack.card, facts)}</strong> → {name(obs.attack.seat)} ({t(obs.attack.side)}) — {name(obs.attack.attacker)}
        </p>
      ) : null}
    </section>
  );
}
