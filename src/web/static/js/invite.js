// Invite: makes a one-time login link for a teammate (POST /api/invites) and shows it to copy.
// The link holds a code good for one visit, never the token.
import { postJson } from './api.js';
import { h } from './dom.js';

/** Wires the header's "Invite" button: each click makes a new link, shown under the header. */
export function setupInvite() {
  const button = document.getElementById('invite');
  button.addEventListener('click', async () => {
    button.disabled = true;
    document.getElementById('invitation')?.remove();
    let box;
    try {
      const { link, expiresAt } = await postJson('/api/invites', {});
      const field = h('input', { id: 'invite-link', readonly: true, size: 60, value: link, 'aria-label': 'invitation link' });
      box = h('section', { id: 'invitation' },
        h('p', {}, 'Send this link to one teammate: it lets one browser in, once, until ', h('time', { datetime: expiresAt }, new Date(expiresAt).toLocaleString()), '.'),
        field,
        h('button', { type: 'button', onclick: () => document.getElementById('invitation')?.remove() }, 'Done'));
      document.querySelector('header').after(box);
      field.focus();
      field.select();
    } catch (e) {
      box = h('section', { id: 'invitation', class: 'error' }, e?.message ?? String(e));
      document.querySelector('header').after(box);
    } finally {
      button.disabled = false;
    }
  });
}
