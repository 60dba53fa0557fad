// Whether the page is used by touch alone (a phone, most tablets): no pointer there can hover
// over a card or click it, so a hint says "tap" rather than "point at" or "click". The same
// media query as a stylesheet would use; a mouse plugged into a tablet makes it false.
export const TOUCH_ONLY = "(hover: none)";

export function touchOnly(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(TOUCH_ONLY).matches;
}
