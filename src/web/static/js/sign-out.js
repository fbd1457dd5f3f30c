// Sign out: ends this browser's session on the server (its cookie stops working there too).
import { postJson } from './api.js';
import { fill, h } from './dom.js';

/** Wires the header's "Sign out" button. */
export function setupSignOut() {
  const button = document.getElementById('sign-out');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await postJson('/api/session/end', {});
      fill(document.getElementById('main'), h('p', { id: 'signed-out' }, 'Signed out. Open a new link from resq serve to sign in again.'));
      button.hidden = true;
      document.getElementById('invite').hidden = true;
      document.getElementById('invitation')?.remove();
    } catch (e) {
      button.disabled = false;
      fill(document.getElementById('main'), h('p', { class: 'error' }, e?.message ?? String(e)));
    }
  });
}
