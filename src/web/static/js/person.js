// The person's name: asked once (the field in the header), kept in this browser, recorded with each answer.
const PERSON_KEY = 'resq.person';

/** Fills the header's name field from this browser's memory and keeps what is typed. */
export function setupPerson() {
  const input = document.getElementById('person');
  input.value = localStorage.getItem(PERSON_KEY) ?? '';
  input.addEventListener('change', () => localStorage.setItem(PERSON_KEY, input.value.trim()));
}

/** The name the person gave, or ''. */
export function personName() {
  const v = (document.getElementById('person')?.value ?? '').trim();
  if (v) localStorage.setItem(PERSON_KEY, v);
  return v;
}
