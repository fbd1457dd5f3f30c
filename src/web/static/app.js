// The page's entry: picks the view the path names. Views: / (batches), /b/NAME (a batch, live,
// with its items), /b/NAME/i/ID (an item), /compare?a=&b=. Filters live in the URL's query.
import { fill, h } from './js/dom.js';
import { showBatches } from './js/batches-view.js';
import { showBatch } from './js/batch-view.js';
import { showItem } from './js/item-view.js';
import { showCompare } from './js/compare-view.js';
import { setupPerson } from './js/person.js';
import { setupSignOut } from './js/sign-out.js';
import { setupInvite } from './js/invite.js';

async function route() {
  const main = document.getElementById('main');
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (parts.length === 0) await showBatches(main);
    else if (parts[0] === 'b' && parts.length === 2) await showBatch(main, parts[1]);
    else if (parts[0] === 'b' && parts[2] === 'i' && parts.length === 4) await showItem(main, parts[1], parts[3]);
    else if (parts[0] === 'compare') await showCompare(main);
    else fill(main, h('p', {}, 'Nothing here. '), h('a', { href: '/' }, 'All batches'));
  } catch (e) {
    fill(main, h('p', { class: 'error' }, e?.message ?? String(e)));
  }
}

setupPerson();
setupSignOut();
setupInvite();
void route();
