// The rules help (GET /api/rules/{game}?lang=..[&card=CODE]): the same source as the terminal's
// `rules`, drawn as sections with headings, lists and the game's own icons, a table of contents,
// a search over the sections and every card of the game, and one card's help (its picture, where
// it may go, what it does, what it fends off and what fends it off).
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { gameOf } from "../games";
import type { Translate } from "../i18n";
import type { CardFacts, GameName, Lang, Rulebook, RulesBlock, RulesCardHelp, RulesSection, RulesSpan } from "../protocol";
import { Dialog } from "./Dialog";
import { Icon, type IconName } from "./icons";

interface RulesProps {
  game: GameName;
  lang: Lang;
  card?: string | undefined; // open on this card's help
  facts?: Record<string, CardFacts> | undefined; // the game's card facts, for the pictures
  onClose: () => void;
  t: Translate;
}

const ICONS = new Set<string>(["mask", "helmet", "pig", "music", "seal"]);

/** Text folded for searching, one UTF-16 unit for one: lower case, no accents, a hyphen as a
 * space ("Heavy-Metal" is found as "heavy metal"); positions stay those of the text. */
function fold(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charAt(i);
    out += c === "-" || /\s/.test(c) ? " " : (c.normalize("NFD").charAt(0).toLowerCase() || c).charAt(0);
  }
  return out;
}

function foldQuery(query: string): string {
  return fold(query).replace(/ +/g, " ").trim();
}

/** ``text`` with every match of the folded query marked. */
function marked(text: string, query: string): ComponentChildren {
  if (!query) return text;
  const folded = fold(text);
  const out: ComponentChildren[] = [];
  let at = 0;
  for (let i = folded.indexOf(query); i >= 0; i = folded.indexOf(query, i + query.length)) {
    if (i > at) out.push(text.slice(at, i));
    out.push(<mark>{text.slice(i, i + query.length)}</mark>);
    at = i + query.length;
  }
  if (at === 0) return text;
  out.push(text.slice(at));
  return out;
}

function blocksText(blocks: RulesBlock[]): string {
  const runs = blocks.flatMap((block) => (block.kind === "paragraph" ? [block.spans] : block.items));
  return runs.map((run) => run.map((span) => span.text).join("")).join("\n");
}

interface Shown {
  query: string;
  known: Set<string>; // the codes of the game's cards: a card span opens its help
  openCard: (code: string) => void;
}

function Span({ span, shown }: { span: RulesSpan; shown: Shown }) {
  const text = marked(span.text, shown.query);
  if (span.kind === "icon" && ICONS.has(span.ref)) {
    return (
      <span class={`rules-icon icon-${span.ref}`} data-icon={span.ref}>
        <Icon name={span.ref as IconName} size={16} />
        {text}
      </span>
    );
  }
  if (span.kind === "card" && shown.known.has(span.ref)) {
    return (
      <button type="button" class="link-button rules-card-link" data-card={span.ref} onClick={() => shown.openCard(span.ref)}>
        {text}
      </button>
    );
  }
  if (span.kind === "rule") return <code class="rule-id">{text}</code>;
  return <>{text}</>;
}

function Run({ spans, shown }: { spans: RulesSpan[]; shown: Shown }) {
  return (
    <>
      {spans.map((span) => (
        <Span span={span} shown={shown} />
      ))}
    </>
  );
}

function Blocks({ blocks, shown }: { blocks: RulesBlock[]; shown: Shown }) {
  return (
    <>
      {blocks.map((block) =>
        block.kind === "paragraph" ? (
          <p>
            <Run spans={block.spans} shown={shown} />
          </p>
        ) : (
          <ul>
            {block.items.map((item) => (
              <li>
                <Run spans={item} shown={shown} />
              </li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}

function Picture({ game, code, facts }: { game: GameName; code: string; facts: Record<string, CardFacts> }) {
  if (!facts[code]) return null;
  const { CardPicture } = gameOf(game);
  return <CardPicture code={code} facts={facts} />;
}

function CardLinks({ title, cards, shown, id }: { title: string; cards: RulesCardHelp["defends"]; shown: Shown; id: string }) {
  if (cards.length === 0) return null;
  return (
    <section class={`card-help-part ${id}`}>
      <h3>{title}</h3>
      <p class="card-links">
        {cards.map((card) => (
          <button type="button" class="ghost small" data-card={card.code} onClick={() => shown.openCard(card.code)}>
            {card.name}
          </button>
        ))}
      </p>
    </section>
  );
}

function CardHelpView({ help, game, facts, shown, t }: { help: RulesCardHelp; game: GameName; facts: Record<string, CardFacts>; shown: Shown; t: Translate }) {
  return (
    <article class="card-help-view" data-code={help.code}>
      <div class="card-help-picture">
        <Picture game={game} code={help.code} facts={facts} />
      </div>
      <div class="card-help-facts">
        <h3 class="card-help-name">{help.name}</h3>
        {help.about ? <p class="card-help-about">{help.about}</p> : null}
        {help.uses.length > 0 ? (
          <section class="card-help-part uses">
            <h3>{t("cardUses")}</h3>
            <ul>
              {help.uses.map((use) => (
                <li data-use={use.use}>
                  <strong>{use.label}</strong>
                  {use.places.length > 0 ? `: ${use.places.join(" · ")}` : ""}{" "}
                  {use.rules.map((rule) => (
                    <code class="rule-id">{rule}</code>
                  ))}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section class="card-help-part does">
          <h3>{t("cardDoes")}</h3>
          <Blocks blocks={help.does} shown={shown} />
        </section>
        <CardLinks id="defends" title={t("cardDefends")} cards={help.defends} shown={shown} />
        <CardLinks id="defended-by" title={t("cardDefendedBy")} cards={help.defended_by} shown={shown} />
        <CardLinks id="cannot-hit" title={t("cardCannotHit")} cards={help.cannot_hit} shown={shown} />
      </div>
    </article>
  );
}

function sectionId(id: string): string {
  return `rules-${id}`;
}

function scrollTo(id: string) {
  document.getElementById(id)?.scrollIntoView({ block: "start", behavior: "smooth" });
}

function Book({ book, game, facts, shown, query, setQuery, t }: { book: Rulebook; game: GameName; facts: Record<string, CardFacts>; shown: Shown; query: string; setQuery: (q: string) => void; t: Translate }) {
  const folded = shown.query;
  const sections = useMemo(
    () => book.sections.filter((s: RulesSection) => !folded || fold(`${s.title}\n${blocksText(s.blocks)}`).includes(folded)),
    [book, folded],
  );
  const cards = useMemo(() => book.cards.filter((c) => !folded || fold(`${c.name}\n${c.code}\n${c.about}`).includes(folded)), [book, folded]);
  const nothing = sections.length === 0 && cards.length === 0;
  return (
    <>
      <div class="rules-search">
        <label for="rules-search">{t("rulesSearch")}</label>
        <input id="rules-search" type="search" value={query} placeholder={t("rulesSearchHint")} autocomplete="off" onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
      </div>
      {nothing ? (
        <p class="rules-no-match" role="status">
          {t("rulesNoMatch", { query: query.trim() })}
        </p>
      ) : (
        <nav class="rules-toc" aria-label={t("rulesContents")}>
          {sections.map((s) => (
            <button type="button" class="link-button" data-section={s.id} onClick={() => scrollTo(sectionId(s.id))}>
              {s.title}
            </button>
          ))}
          {cards.length > 0 ? (
            <button type="button" class="link-button" data-section="cards" onClick={() => scrollTo("rules-cards")}>
              {t("rulesCards")}
            </button>
          ) : null}
        </nav>
      )}
      {sections.map((s) => (
        <section class="rules-section" id={sectionId(s.id)} data-section={s.id}>
          <h3>{marked(s.title, folded)}</h3>
          <Blocks blocks={s.blocks} shown={shown} />
        </section>
      ))}
      {cards.length > 0 ? (
        <section class="rules-section rules-cards" id="rules-cards" data-section="cards">
          <h3>{t("rulesCards")}</h3>
          <ul class={`rules-card-list game-${game}`}>
            {cards.map((card) => (
              <li>
                <button type="button" class="rules-card" data-card={card.code} onClick={() => shown.openCard(card.code)}>
                  <Picture game={game} code={card.code} facts={facts} />
                  <span class="rules-card-name">{marked(card.name, folded)}</span>
                  {card.about ? <span class="rules-card-about">{marked(card.about, folded)}</span> : null}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function RulesDialog({ game, lang, card: firstCard, facts, onClose, t }: RulesProps) {
  const [card, setCard] = useState<string | undefined>(firstCard);
  const [book, setBook] = useState<Rulebook | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  useEffect(() => {
    const params = new URLSearchParams({ lang });
    if (card) params.set("card", card);
    let live = true;
    setFailed(null);
    fetch(`/api/rules/${game}?${params.toString()}`)
      .then(async (response) => {
        const data = (await response.json()) as Rulebook & { detail?: string };
        if (!live) return;
        if (response.ok && Array.isArray(data.sections)) setBook(data);
        else setFailed(data.detail ?? response.statusText);
      })
      .catch((error: unknown) => live && setFailed(String(error)));
    return () => {
      live = false;
    };
  }, [game, lang, card]);
  const known = useMemo(() => new Set((book?.cards ?? []).map((c) => c.code)), [book]);
  const shown: Shown = { query: foldQuery(query), known, openCard: setCard };
  const help = card && book?.card?.code === card ? book.card : null;
  const loaded = book !== null && (!card || help !== null);
  const title = help ? `${t("rules")}: ${help.name}` : t("rulesTitle");
  return (
    <Dialog id="rules" title={title} onClose={onClose} closeLabel={t("close")} wide>
      <div class={`rules-book${failed ? " failed" : ""}`} data-loaded={loaded ? "yes" : "no"} data-view={card ? "card" : "rules"}>
        {failed ? <p class="rules-failed">{t("rulesFailed", { reason: failed })}</p> : null}
        {card ? (
          <button type="button" class="ghost small rules-back" onClick={() => setCard(undefined)}>
            ‹ {t("rulesBack")}
          </button>
        ) : null}
        {!book ? (
          failed ? null : <p class="loading">{t("loading")}</p>
        ) : card ? (
          help ? <CardHelpView help={help} game={game} facts={facts ?? {}} shown={shown} t={t} /> : failed ? null : <p class="loading">{t("loading")}</p>
        ) : (
          <Book book={book} game={game} facts={facts ?? {}} shown={shown} query={query} setQuery={setQuery} t={t} />
        )}
      </div>
    </Dialog>
  );
}
