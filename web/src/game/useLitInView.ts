// When a decision comes and none of its lit places is on the screen (a phone scrolled down to the
// log, a display below the fold), the first of them is brought into view: a person should not
// have to hunt for what the table asks of them.
import { useEffect } from "preact/hooks";

// What a decision lights: places on the displays, hand cards, players, and the choices.
const LIT = ".cell.target, .hand-card.target, button.player-row.target, .seat-pick.target, #choices button.choice";

function inView(element: HTMLElement, top: number): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom > top && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
}

/** Bring the first lit place into view when ``decision`` (a key of the decision asked of this
 * seat, or null while it is not asked) changes and nothing lit is in sight. */
export function useLitInView(decision: string | null): void {
  useEffect(() => {
    if (decision === null) return;
    // after the table has drawn this decision's lights
    const frame = window.requestAnimationFrame(() => {
      const lit = [...document.querySelectorAll<HTMLElement>(LIT)].filter((e) => e.getClientRects().length > 0);
      const first = lit[0];
      if (first === undefined) return;
      // the sticky top bar covers the top of the window
      const top = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
      if (lit.some((element) => inView(element, top))) return;
      // At once, not smoothly: a smooth scroll is cut short by the next layout change (the
      // table still settling into this decision), and the decision is the moment to look.
      first.scrollIntoView({ block: "center", inline: "nearest" });
    });
    return () => window.cancelAnimationFrame(frame);
  }, [decision]);
}
