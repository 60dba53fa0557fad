// The game's symbols as inline SVG, so that every browser draws them the same with no font or
// file from elsewhere: the three protection icons (mask, helmet, pig's head), music, the seal,
// a populace, the horseman and death.
import type { JSX } from "preact";

export type IconName = "mask" | "helmet" | "pig" | "music" | "seal" | "person" | "horse" | "skull" | "halo" | "horns" | "clock" | "sword" | "swap" | "eye" | "shield";

interface IconProps {
  name: IconName;
  size?: number;
  title?: string;
  class?: string;
}

const PATHS: Record<IconName, JSX.Element> = {
  mask: (
    <g>
      <path d="M3 5c3-1.5 15-1.5 18 0 0 7-3 13-9 14C6 18 3 12 3 5z" fill="currentColor" />
      <path d="M6.5 9.5c1-1 3-1 4 0M13.5 9.5c1-1 3-1 4 0" stroke="var(--icon-cut, #1a1420)" stroke-width="1.6" fill="none" stroke-linecap="round" />
      <path d="M8.5 14.5c2 1.6 5 1.6 7 0" stroke="var(--icon-cut, #1a1420)" stroke-width="1.6" fill="none" stroke-linecap="round" />
    </g>
  ),
  helmet: (
    <g>
      <path d="M3 15c0-6 4-10 9-10s9 4 9 10v1H3z" fill="currentColor" />
      <rect x="1.5" y="15.5" width="21" height="3" rx="1.2" fill="currentColor" />
      <path d="M12 5v10" stroke="var(--icon-cut, #1a1420)" stroke-width="1.4" />
    </g>
  ),
  pig: (
    <g>
      <path d="M5 6 3 2.5 8 4.5M19 6l2-3.5-5 2" fill="currentColor" />
      <circle cx="12" cy="12.5" r="8" fill="currentColor" />
      <ellipse cx="12" cy="15" rx="3.6" ry="2.6" fill="var(--icon-cut, #1a1420)" />
      <circle cx="10.6" cy="15" r="0.9" fill="currentColor" />
      <circle cx="13.4" cy="15" r="0.9" fill="currentColor" />
      <circle cx="8.8" cy="10" r="1.1" fill="var(--icon-cut, #1a1420)" />
      <circle cx="15.2" cy="10" r="1.1" fill="var(--icon-cut, #1a1420)" />
    </g>
  ),
  music: (
    <g fill="currentColor">
      <path d="M9 4.5 20 2v13.5h-2V5.6l-7 1.6V18H9z" />
      <ellipse cx="7" cy="18.2" rx="3.2" ry="2.4" />
      <ellipse cx="16.8" cy="15.7" rx="3.2" ry="2.4" />
    </g>
  ),
  seal: (
    <g>
      <circle cx="12" cy="12" r="9.5" fill="currentColor" />
      <path d="m12 5.5 1.9 4.2 4.6.4-3.5 3 1.1 4.5-4.1-2.4-4 2.4 1-4.5-3.4-3 4.6-.4z" fill="var(--icon-cut, #1a1420)" />
    </g>
  ),
  person: (
    <g fill="currentColor">
      <circle cx="12" cy="7" r="4" />
      <path d="M4 21c0-5 3.6-8 8-8s8 3 8 8z" />
    </g>
  ),
  halo: (
    <g fill="currentColor">
      <ellipse cx="12" cy="3.4" rx="5" ry="1.6" fill="none" stroke="currentColor" stroke-width="1.4" />
      <circle cx="12" cy="9" r="3.6" />
      <path d="M5 22c0-5 3-8.5 7-8.5s7 3.5 7 8.5z" />
    </g>
  ),
  horns: (
    <g fill="currentColor">
      <path d="M7 3c0 3 1.2 4.5 3 5L8.6 9C6.5 8 6 5.5 7 3zM17 3c0 3-1.2 4.5-3 5l1.4 1c2.1-1 2.6-3.5 1.6-6z" />
      <circle cx="12" cy="10" r="3.8" />
      <path d="M5 22c0-5 3-8.5 7-8.5s7 3.5 7 8.5z" />
    </g>
  ),
  horse: (
    <path
      fill="currentColor"
      d="M6 21c0-4 1.5-6.5 4-8.5L8 11c-1.6.7-3 .4-3.8-.6L6.6 6C8 3.6 10.6 2.2 13.6 2.6l.9-1.6 1.1 2c3.5 1.5 5.4 5.3 5.4 9.4V21zM10.6 6.2a1 1 0 1 0 0 .1z"
    />
  ),
  skull: (
    <g>
      <path d="M12 2.5c-5 0-8.5 3.4-8.5 8 0 2.8 1.3 4.6 3 5.6V20h11v-3.9c1.7-1 3-2.8 3-5.6 0-4.6-3.5-8-8.5-8z" fill="currentColor" />
      <circle cx="8.6" cy="11" r="2.1" fill="var(--icon-cut, #1a1420)" />
      <circle cx="15.4" cy="11" r="2.1" fill="var(--icon-cut, #1a1420)" />
      <path d="M11 15.2h2l-1-1.8z" fill="var(--icon-cut, #1a1420)" />
    </g>
  ),
  clock: (
    <g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </g>
  ),
  shield: <path fill="currentColor" d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" />,
  eye: (
    <g>
      <path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" fill="currentColor" />
      <circle cx="12" cy="12" r="3.6" fill="var(--icon-cut, #1a1420)" />
    </g>
  ),
  sword: (
    <path fill="currentColor" d="M19.5 2.5 21.5 4.5 10 16l1.5 1.5-1.5 1.5-1.5-1.5L5 21l-2-2 3.5-3.5L5 14l1.5-1.5L8 14z" />
  ),
  swap: (
    <g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
      <path d="M4 8h14l-3.5-3.5M20 16H6l3.5 3.5" />
    </g>
  ),
};

/** One symbol; decorative unless it has a title (then a screen reader reads the title). */
export function Icon({ name, size = 18, title, class: className }: IconProps) {
  return (
    <svg
      class={`icon icon-${name}${className ? ` ${className}` : ""}`}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role={title ? "img" : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
    >
      {title ? <title>{title}</title> : null}
      {PATHS[name]}
    </svg>
  );
}
