/** Tiny DOM helpers: the page builds every element with textContent, never innerHTML. */

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function node<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}
