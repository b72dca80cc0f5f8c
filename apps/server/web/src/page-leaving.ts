// Set while the page is being left (a reload, a navigation, the tab closing): its requests are
// cut off then, which is no reason to act — a queued message must not go out as the page goes away.
let leaving = false;
window.addEventListener('pagehide', () => {
  leaving = true;
});
// Back from the back-forward cache: the page lives again.
window.addEventListener('pageshow', () => {
  leaving = false;
});

export const isPageLeaving = (): boolean => leaving;
