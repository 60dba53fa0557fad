// An Apokalypse card: face up (its name, and the icons or word of the half its side shows),
// face down (a populace's back), big in the hand or small on a display.
import type { ComponentChildren } from "preact";
import type { CardFacts } from "../protocol";
import { breakable } from "../ui/fitText";
import { Icon } from "../ui/icons";
import type { SideName } from "./moves";
import { cardBack, cardClass, cardIcons, cardSymbol } from "./cardLook";

interface CardFaceProps {
  code: string;
  facts: Record<string, CardFacts>;
  /** On a display: the side whose half shows. In the hand: undefined (both halves). */
  side?: SideName;
  front?: string; // a face-down populace's front, known to the viewer who laid it
  size: "table" | "hand";
  children?: ComponentChildren; // marks drawn over the card (dying, target)
}

export function cardName(code: string, facts: Record<string, CardFacts>): string {
  return facts[code]?.name ?? code;
}

function Halves({ code, facts }: { code: string; facts: Record<string, CardFacts> }) {
  const kind = cardClass(code, facts);
  if (kind === "protection") {
    return (
      <span class="halves">
        <span class="half good">{cardIcons(code, facts, "good").map((icon) => <Icon name={icon} size={20} />)}</span>
        <span class="half evil">{cardIcons(code, facts, "evil").map((icon) => <Icon name={icon} size={20} />)}</span>
      </span>
    );
  }
  if (kind === "dual") {
    return (
      <span class="halves words">
        <span class="half good">{breakable(facts[code]?.good ?? "")}</span>
        <span class="half evil">{breakable(facts[code]?.evil ?? "")}</span>
      </span>
    );
  }
  const icons = cardIcons(code, facts, "good");
  const symbol = cardSymbol(code, facts);
  return (
    <span class="emblem">
      {icons.map((icon) => <Icon name={icon} size={30} />)}
      {symbol ? <Icon name={symbol} size={30} /> : null}
    </span>
  );
}

export function CardFace({ code, facts, side, front, size, children }: CardFaceProps) {
  const kind = cardClass(code, facts);
  const back = cardBack(code, facts);
  const role = facts[code]?.role;
  const classes = `card card-${size} kind-${kind}${side ? ` on-${side}` : ""}${role === "church" ? " church" : ""}${role === "metal" ? " metal" : ""}`;
  if (size === "hand") {
    return (
      <span class={classes} data-code={code}>
        {back ? <span class="corner">{back}</span> : null}
        <Halves code={code} facts={facts} />
        <span class="name">{breakable(cardName(code, facts))}</span>
        {children}
      </span>
    );
  }
  if (kind === "back") {
    return (
      <span class={classes} data-code={code}>
        <Icon name="person" size={22} />
        {front ? <span class="front">({facts[front]?.[side ?? "good"] ?? cardName(front, facts)})</span> : null}
        {children}
      </span>
    );
  }
  const icons = side ? cardIcons(code, facts, side) : [];
  const symbol = cardSymbol(code, facts);
  // Protection shows its icons alone (the words would repeat them); other cards their half's
  // word, breakable after a "+" ("Helm+Pig").
  const word = (side ? facts[code]?.[side] : undefined) ?? cardName(code, facts);
  return (
    <span class={classes} data-code={code} title={cardName(code, facts)}>
      <span class="emblem">
        {icons.map((icon) => <Icon name={icon} size={icons.length > 2 ? 15 : icons.length > 1 ? 19 : 24} />)}
        {symbol ? <Icon name={symbol} size={20} /> : null}
      </span>
      {icons.length === 0 ? <span class="word">{breakable(word)}</span> : null}
      {children}
    </span>
  );
}
