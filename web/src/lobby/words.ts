// The lobby's words about QR codes, in the lobby's two languages (the rest are in ../i18n.ts).
import type { Lang } from "../protocol";

const words = {
  en: {
    qrHelp: "Or let a friend scan their seat's code with a phone camera (tap a code to enlarge it).",
    qrOf: (what: string) => `QR code of the ${what}`,
  },
  de: {
    qrHelp: "Oder lass eine Person den Code ihres Platzes mit der Handykamera scannen (tippe auf einen Code, um ihn zu vergrößern).",
    qrOf: (what: string) => `QR-Code: ${what}`,
  },
} as const;

export function qrWords(lang: Lang): (typeof words)[Lang] {
  return words[lang];
}
