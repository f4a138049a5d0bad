// Form schemas live in app/utils/forms/ because utils is the layer both the browser and the server
// import and the lint's layer rules already keep server code out of it; a route's fields and its
// model's checks read the same schema from here. Only admin, register and login bundles import it.
import * as z from "zod";
import { translateMessage } from "~/i18n/keyed";
import type { Translator } from "~/i18n/translate";

export { keyedMessage, translateMessage } from "~/i18n/keyed";

/** What every form check answers: the parsed value, or one message per refused field. */
export type FormResult<T> = { ok: true; value: T } | { ok: false; message: string; errors: Record<string, string> };

/** Parses with a schema; each field keeps its first problem, in the schema's order. */
export function parseForm<S extends z.ZodTypeAny>(schema: S, values: unknown, message: string): FormResult<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? "")] ??= issue.message;
  return { ok: false, message, errors };
}

/** The HTML attributes a field takes from its schema. */
export interface FieldConstraint {
  required: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
}

function constraintOf(schema: z.ZodTypeAny): FieldConstraint {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return { ...constraintOf(schema._def.innerType), required: false };
  if (schema instanceof z.ZodEffects) return constraintOf(schema._def.schema);
  if (schema instanceof z.ZodPipeline) {
    const [input, output] = [constraintOf(schema._def.in), constraintOf(schema._def.out)];
    return { ...input, ...output, required: input.required || output.required };
  }
  const constraint: FieldConstraint = { required: false };
  if (schema instanceof z.ZodString) {
    // min(1) is how a schema says "required"; a longer minimum is an attribute of its own.
    constraint.required = (schema.minLength ?? 0) > 0;
    if (schema.maxLength !== null) constraint.maxLength = schema.maxLength;
    if ((schema.minLength ?? 0) > 1) constraint.minLength = schema.minLength!;
  }
  if (schema instanceof z.ZodNumber) {
    if (schema.minValue !== null) constraint.min = schema.minValue;
    if (schema.maxValue !== null) constraint.max = schema.maxValue;
  }
  return constraint;
}

/** Each field's HTML constraints (required, maxLength, min, max), read from an object schema. */
export function fieldConstraints<T extends z.ZodRawShape>(schema: z.ZodObject<T>): Record<keyof T, FieldConstraint> {
  return Object.fromEntries(Object.entries(schema.shape).map(([name, field]) => [name, constraintOf(field as z.ZodTypeAny)])) as Record<
    keyof T,
    FieldConstraint
  >;
}

/** A text field as a form post sends it: an absent field is empty. */
export function text<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess((value) => value ?? "", schema);
}

/** A form's answer (a FormResult, an admin form's result) with its message and field errors translated. */
export function translateFormResult<R extends { message?: string; errors?: Record<string, string> }>(result: R, t: Translator["t"]): R {
  const translated = { ...result };
  if (result.message !== undefined) translated.message = translateMessage(result.message, t);
  if (result.errors) translated.errors = Object.fromEntries(Object.entries(result.errors).map(([name, text]) => [name, translateMessage(text, t)]));
  return translated;
}
