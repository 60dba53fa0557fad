// Card names are whole words: they may break at a space, after a "+" or "/", or with a hyphen
// where the browser hyphenates the page's language (ui/seen.css), never inside a word without
// one. A word still too wide for its card (a long German compound where the browser has no
// hyphenation dictionary) gets a smaller font until it fits.
import { useEffect } from "preact/hooks";

const FIT = ".card-table .word, .card-hand .name, .halves.words .half, .card.kind-back .front";
const SMALLEST_PX = 6.5;

/** Break opportunities a card's words allow: after a "+" or a "/" (a zero-width space). */
export function breakable(text: string): string {
  return text.replace(/([+/])(?=\S)/g, "$1\u200b");
}

export function fitText(root: ParentNode = document): void {
  for (const element of Array.from(root.querySelectorAll<HTMLElement>(FIT))) {
    element.style.fontSize = "";
    if (element.scrollWidth <= element.clientWidth + 0.5) continue;
    let size = parseFloat(window.getComputedStyle(element).fontSize);
    while (element.scrollWidth > element.clientWidth + 0.5 && size > SMALLEST_PX) {
      size -= 0.5;
      element.style.fontSize = `${size}px`;
    }
    element.dataset.fitted = String(size);
  }
}

/** Fit the card names after every render of the table. */
export function useFitText(): void {
  useEffect(() => fitText());
}
