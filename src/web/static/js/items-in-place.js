// The batch page's items, paged in place: the server makes each page of items (its links and
// filter form work with the script off); with the script on, a link or the form fetches that
// page and puts its items section in place of this one, so the live parts and a selection in
// the held table stay. The section is the server's own escaped HTML, parsed, never run.
import { when } from './dom.js';

/** Shows the times of an items section in local time (the server writes UTC). */
export function localTimes(section) {
  for (const t of section.querySelectorAll('time[datetime]')) t.textContent = when(t.getAttribute('datetime'));
}

/** Follows the items' pager links and filter form in place, with the address kept in the history. */
export function pageItemsInPlace() {
  const swap = async (url, push) => {
    let res;
    try {
      res = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    } catch {
      location.href = url;
      return;
    }
    const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('items');
    const here = document.getElementById('items');
    if (!fresh || !here) return void (location.href = url);
    localTimes(fresh);
    // The address the server settled on (a form's query is made plain by a redirect).
    if (push) history.pushState(null, '', res.url || url);
    here.replaceWith(document.adoptNode(fresh));
  };
  document.addEventListener('click', (ev) => {
    const a = ev.target instanceof Element ? ev.target.closest('#items .pager a') : null;
    if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    void swap(a.href, true);
  });
  document.addEventListener('submit', (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || form.id !== 'filters') return;
    ev.preventDefault();
    const u = new URL(form.action);
    u.search = new URLSearchParams(new FormData(form)).toString();
    void swap(u.href, true);
  });
  window.addEventListener('popstate', () => void swap(location.href, false));
}
