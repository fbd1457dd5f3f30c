import { z } from 'zod';

/** One input or output a model declares. */
export const ModelFieldSchema = z.looseObject({
  name: z.string(),
  /** Declared type (`integer`, `number`, `boolean`, `string`, `file`, …), null when not given. */
  type: z.string().nullish().transform((v) => v ?? null),
  /** Whether the input must be given; absent counts as false. */
  required: z.boolean().nullish().transform((v) => v ?? false),
  /** Value used when the input is omitted. */
  default: z.unknown().optional(),
  description: z.string().nullish(),
});
/** A model input or output declaration. */
export type ModelField = z.infer<typeof ModelFieldSchema>;

const unnamedField = ModelFieldSchema.extend({ name: z.string().optional() });

/**
 * The spec does not name the fields of the lists, so both shapes are accepted: an array of
 * `{name, type, …}` or an object keyed by name. Always an array after parsing.
 */
const fieldList = z
  .union([z.array(ModelFieldSchema), z.record(z.string(), unnamedField)])
  .nullish()
  .transform((v): ModelField[] => {
    if (!v) return [];
    if (Array.isArray(v)) return v;
    return Object.entries(v).map(([key, field]) => ({ ...field, name: field.name ?? key }));
  });

/** `GET /models/{id}`: the inputs the model takes and the outputs it returns. */
export const ModelDescriptionSchema = z.looseObject({
  id: z.string().nullish(),
  name: z.string().nullish(),
  inputs: fieldList,
  outputs: fieldList,
  page_url: z.string().nullish(),
});
/** A model description. */
export type ModelDescription = z.infer<typeof ModelDescriptionSchema>;

/** A direct model run. */
export const ModelRunSchema = z.looseObject({
  id: z.string(),
  /** `running`, `succeeded`, `failed`, `cancelled` (other strings kept). */
  status: z.string(),
  /** Outputs keyed by the names the description lists; null while running or on failure. */
  outputs: z.record(z.string(), z.unknown()).nullish().transform((v) => v ?? null),
  /** Why a failed run failed. */
  error: z.string().nullish().transform((v) => v ?? null),
  /** Cost, when answered inline. */
  credits: z.number().nullish().transform((v) => v ?? null),
  /** Where to read a running job. */
  poll_url: z.string().nullish().transform((v) => v ?? null),
  /** The model's page. */
  page_url: z.string().nullish().transform((v) => v ?? null),
});
/** A direct model run. */
export type ModelRun = z.infer<typeof ModelRunSchema>;
