// Marks on the table: the coach and the guided game light the elements that make one action (a
// place or a player, a hand card that plays it, a choice button). The table renders on its own,
// without the marking component (a picked hand card narrows the choices to its uses in the table's
// own state), and reuses its buttons: a mark added once would stay on a button that now makes
// another action. So the marks follow the table: every change to what an element makes marks it
// again, on the elements that make the action now and on no other.
import { useLayoutEffect } from "preact/hooks";

// What an element makes, and its classes: the table's own render may set its class anew.
const WATCHED = ["data-action", "data-actions", "class"];

/** Whether ``element`` on the table makes ``action`` (the coach panels' own words are not the table). */
function makes(element: Element, action: string): boolean {
  if (element.closest("#tutor")) return false;
  const one = element.getAttribute("data-action");
  const many = element.getAttribute("data-actions");
  return one === action || (many !== null && many.split("|").includes(action));
}

/** The table's elements that make ``action``, in the page's order. */
export function makers(action: string): Element[] {
  return [...document.querySelectorAll("[data-action], [data-actions]")].filter((el) => makes(el, action));
}

/** Mark with ``mark`` (a class) the table's elements that make ``action`` (none: null), as long
 * as the component lives and whatever the table renders meanwhile; ``onFirst`` is told the first
 * one each time it is marked afresh. */
export function useTableMark(mark: string, action: string | null, onFirst?: (first: Element) => void): void {
  // A layout effect: the marks move in the same frame as the action named, never a frame late.
  useLayoutEffect(() => {
    const clear = () => {
      for (const el of document.querySelectorAll(`.${mark}`)) el.classList.remove(mark);
    };
    clear();
    if (action === null) return clear;
    let first: Element | undefined;
    const apply = () => {
      for (const el of document.querySelectorAll(`.${mark}`)) if (!makes(el, action)) el.classList.remove(mark);
      const now = makers(action);
      for (const el of now) if (!el.classList.contains(mark)) el.classList.add(mark);
      if (now[0] !== undefined && now[0] !== first) {
        first = now[0];
        onFirst?.(first);
      }
    };
    apply();
    // Elements added or replaced, made to make another action, or given their classes anew by the
    // table's render: mark again. (The classes this function changes wake it once more, to find
    // nothing left to change.)
    const observer = new MutationObserver(apply);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: WATCHED });
    return () => {
      observer.disconnect();
      clear();
    };
  }, [mark, action]);
}
