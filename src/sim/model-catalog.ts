import { isObject } from './answers.js';
import { hashString } from './rng.js';

/** Types an input or output may declare. */
export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'file';

/** One input of a model description. */
export interface ModelInput {
  name: string;
  type: ValueType;
  required: boolean;
  default?: unknown;
  description?: string;
}

/** One output of a model description. */
export interface ModelOutput {
  name: string;
  type: ValueType;
  description?: string;
}

/** Where a model puts a file it makes. */
export type MakeFile = (name: string, residues: number) => { id: string; role: string; url: string; name: string };

/** What a finished model job produced. */
export interface ModelResult {
  status: 'succeeded' | 'failed' | 'cancelled';
  outputs: Record<string, unknown> | null;
  error: string | null;
  credits: number;
}

/** A simulated model. */
export interface ModelDef {
  id: string;
  name: string;
  description: string;
  gpu: boolean;
  inputs: ModelInput[];
  outputs: ModelOutput[];
  run(inputs: Record<string, unknown>, makeFile: MakeFile): ModelResult;
}

/** The models the simulator serves: `echo` and `descriptors` (fast), `fold` (GPU). */
export const MODELS: Record<string, ModelDef> = {
  echo: {
    id: 'echo',
    name: 'Echo',
    description: 'Returns its text, repeated and optionally shouted. Fast.',
    gpu: false,
    inputs: [
      { name: 'text', type: 'string', required: true, description: 'Text to return' },
      { name: 'repeat', type: 'integer', required: false, default: 1, description: 'How many times' },
      { name: 'shout', type: 'boolean', required: false, description: 'Upper-case the result' },
    ],
    outputs: [{ name: 'text', type: 'string', description: 'The echoed text' }],
    run(i) {
      const once = i.shout === true ? String(i.text).toUpperCase() : String(i.text);
      const text = Array.from({ length: Math.max(0, Number(i.repeat ?? 1)) }, () => once).join(' ');
      return { status: 'succeeded', outputs: { text }, error: null, credits: 1 };
    },
  },
  descriptors: {
    id: 'descriptors',
    name: 'Molecular descriptors',
    description: 'Molecular weight and logP from a SMILES string. Fast.',
    gpu: false,
    inputs: [
      { name: 'smiles', type: 'string', required: true, description: 'Molecule as SMILES' },
      { name: 'include_3d', type: 'boolean', required: false, default: false, description: 'Also embed a conformer' },
      { name: 'weights', type: 'object', required: false, description: 'Per-element weight overrides' },
      { name: 'properties', type: 'array', required: false, description: 'Descriptors wanted (all when absent)' },
    ],
    outputs: [
      { name: 'mw', type: 'number', description: 'Molecular weight (g/mol)' },
      { name: 'logp', type: 'number', description: 'Octanol-water partition coefficient' },
    ],
    run(i) {
      const smiles = String(i.smiles);
      if (smiles === 'INVALID' || smiles.trim() === '') {
        return { status: 'failed', outputs: null, error: `could not parse SMILES '${smiles}'`, credits: 0 };
      }
      const weights = { ...ATOMIC_WEIGHTS, ...(isObject(i.weights) ? numbersOf(i.weights) : {}) };
      let mw = 0;
      for (const m of smiles.matchAll(/Cl|Br|[BCNOPSFI]|[cnops]/g)) mw += weights[m[0].length === 1 ? m[0].toUpperCase() : m[0]] ?? 0;
      const logp = ((hashString(smiles) % 1000) / 100 - 2).toFixed(2);
      return { status: 'succeeded', outputs: { mw: Number(mw.toFixed(3)), logp: Number(logp) }, error: null, credits: i.include_3d ? 3 : 2 };
    },
  },
  fold: {
    id: 'fold',
    name: 'Fold',
    description: 'Predicts a protein structure. Needs a GPU: runs as a background job.',
    gpu: true,
    inputs: [
      { name: 'sequence', type: 'string', required: true, description: 'Amino-acid sequence, one letter per residue' },
      { name: 'recycles', type: 'integer', required: false, default: 3, description: 'Recycling iterations' },
      { name: 'temperature', type: 'number', required: false, description: 'Sampling temperature' },
      { name: 'template', type: 'file', required: false, description: 'Id of a PDB file to use as template' },
    ],
    outputs: [
      { name: 'meanPlddt', type: 'number', description: 'Mean confidence (0-100)' },
      { name: 'structure', type: 'file', description: 'Predicted structure (PDB)' },
    ],
    run(i, makeFile) {
      const seq = String(i.sequence);
      if (seq === 'CANCEL') return { status: 'cancelled', outputs: null, error: null, credits: 0 };
      if (!/^[A-Za-z]+$/.test(seq)) {
        return { status: 'failed', outputs: null, error: 'sequence must hold amino-acid letters only', credits: 0 };
      }
      const meanPlddt = Number((60 + (hashString(seq) % 3900) / 100).toFixed(2));
      return {
        status: 'succeeded',
        outputs: { meanPlddt, structure: makeFile('fold.pdb', seq.length) },
        error: null,
        credits: 10 + Math.ceil(seq.length / 50),
      };
    },
  },
};

const ATOMIC_WEIGHTS: Record<string, number> = {
  B: 10.81, C: 12.011, N: 14.007, O: 15.999, P: 30.974, S: 32.06, F: 18.998, Cl: 35.45, Br: 79.904, I: 126.904,
};

function numbersOf(o: Record<string, unknown>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/** The description GET /models/{id} answers (with a few fields clients must ignore). */
export function describeModel(def: ModelDef, origin: string): Record<string, unknown> {
  return {
    id: def.id,
    object: 'model',
    name: def.name,
    description: def.description,
    page_url: pageUrl(def, origin),
    gpu: def.gpu,
    inputs: def.inputs,
    outputs: def.outputs,
    version: 'sim-1',
    tags: def.gpu ? ['gpu', 'structure'] : ['cpu'],
  };
}

/** The model's page; its last path segment is the model id. */
export function pageUrl(def: ModelDef, origin: string): string {
  return `${origin}/models/${def.id}`;
}

/**
 * Checks inputs against the description and fills defaults. Returns the message of a 400
 * naming the input, or the completed inputs.
 */
export function checkInputs(def: ModelDef, inputs: Record<string, unknown>): string | Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(inputs)) {
    if (!def.inputs.some((i) => i.name === name)) return `unknown input '${name}' for model ${def.id}`;
  }
  for (const spec of def.inputs) {
    const v = inputs[spec.name];
    if (v === undefined || v === null) {
      if (spec.required) return `missing required input '${spec.name}' (${spec.type})`;
      if (spec.default !== undefined) out[spec.name] = spec.default;
      continue;
    }
    if (!hasType(v, spec.type)) return `input '${spec.name}' must be of type ${spec.type}`;
    out[spec.name] = v;
  }
  return out;
}

function hasType(v: unknown, t: ValueType): boolean {
  switch (t) {
    case 'string':
    case 'file':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
  }
}
