// How an Apokalypse card looks, read from the server's card facts (what is printed on each card
// of the game's own deck, a custom deck's too: its role, back, music, each half's icons): never
// from the spelling of its code. A code without facts (a face-down populace) is a back.
import type { IconName } from "../ui/icons";
import type { SideName } from "./moves";
import type { CardFacts } from "../protocol";

export type CardClass = "protection" | "icon" | "dual" | "music" | "seal" | "saint" | "fiend" | "attack" | "back" | "other";
type Facts = Record<string, CardFacts>;

const CLASS_OF_ROLE: Record<CardFacts["role"], CardClass> = {
  protection: "protection",
  metal: "music",
  church: "music",
  dual: "dual",
  icon: "icon",
  saint: "saint",
  fiend: "fiend",
  violence: "attack",
  "ethos-change": "attack",
  seal: "seal",
  horseman: "other",
};

export function cardClass(code: string, facts: Facts): CardClass {
  const card = facts[code];
  return card === undefined ? "back" : CLASS_OF_ROLE[card.role];
}

/** The icons printed on the half a side shows (a single-icon card shows its icon on both). */
export function cardIcons(code: string, facts: Facts, side: SideName): IconName[] {
  return (facts[code]?.icons[side] ?? []) as IconName[];
}

/** The main symbol of a card that has no protection icons. */
export function cardSymbol(code: string, facts: Facts): IconName | null {
  const card = facts[code];
  if (card === undefined) return "person";
  switch (card.role) {
    case "metal":
    case "church":
      return "music";
    case "seal":
      return "seal";
    case "saint":
      return "halo";
    case "fiend":
      return "horns";
    case "violence":
      return "sword";
    case "ethos-change":
      return "swap";
    default:
      return null;
  }
}

/** The back a card is drawn from ("B" or "K"), as printed. */
export function cardBack(code: string, facts: Facts): "B" | "K" | null {
  const back = facts[code]?.back;
  return back === "B" || back === "K" ? back : null;
}

export const HORSEMAN_VP: Record<number, number> = { 1: 1, 2: 2, 3: 4, 4: 7 };
/** The icon each of the first three horsemen checks (R-COMP-5); Death needs all three. */
export const HORSEMAN_ICON: Record<number, "mask" | "helmet" | "pig"> = { 1: "mask", 2: "helmet", 3: "pig" };

/** The word for each protection icon (i18n keys). */
export const ICON_WORD = { mask: "iconMask", helmet: "iconHelmet", pig: "iconPig" } as const satisfies Partial<Record<IconName, string>>;
