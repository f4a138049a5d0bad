import { useEffect, type RefObject } from "react";

/**
 * Keeps a CSS variable on <html> at an element's real height (it changes with the window, long
 * titles, an episode in the bar, the admin strip): the page reserves room for the fixed player
 * bar, and focus and in-page jumps stop clear of it and of the sticky header (scroll-padding, app.css).
 */
export function useHeightVariable(ref: RefObject<HTMLElement>, variable: `--${string}`) {
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty(variable, `${element.offsetHeight}px`));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, variable]);
}
