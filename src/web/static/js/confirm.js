import { fill, h } from './dom.js';

/**
 * Asks for confirmation inside the page (no browser dialog): shows `question` with Yes / No in
 * `box`; resolves true on Yes.
 */
export function confirmIn(box, question) {
  return new Promise((resolve) => {
    const done = (v) => {
      fill(box);
      resolve(v);
    };
    fill(box, h('div', { class: 'confirm' }, h('span', {}, question), ' ', h('button', { type: 'button', class: 'danger', onclick: () => done(true) }, 'Yes'), ' ', h('button', { type: 'button', onclick: () => done(false) }, 'No')));
  });
}
