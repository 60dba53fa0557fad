// A count on a badge: up to 99, then "99+" (a whole game's log unread counted to 316 and pushed
// the top bar apart on a phone); the badge's label says the exact number.
export const MAX_BADGE = 99;

export function badge(count: number): string {
  return count > MAX_BADGE ? `${MAX_BADGE}+` : String(count);
}
