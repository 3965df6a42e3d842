import type * as z from "zod/v4";
import { ValidationError, type FieldIssue } from "../errors";

function issuesOf(error: z.ZodError, prefix: string): FieldIssue[] {
  return error.issues.flatMap((issue): FieldIssue[] => {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: base ? `${base}.${key}` : key, message: "is not a field of this operation" }));
    }
    return [{ field: base || "input", message: issue.message }];
  });
}

/** Parses `input` with `schema`, or throws a `ValidationError` naming each failing field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, operation: string, prefix = ""): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(issuesOf(result.error, prefix), operation);
  return result.data;
}

/** Like `validate`, but collects the issues of several values into one error. */
export function validateAll<T extends Record<string, [z.ZodType, unknown, string?]>>(checks: T, operation: string): { [K in keyof T]: z.output<T[K][0]> } {
  const issues: FieldIssue[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, [schema, input, prefix]] of Object.entries(checks)) {
    const result = schema.safeParse(input);
    if (result.success) values[name] = result.data;
    else issues.push(...issuesOf(result.error, prefix ?? name));
  }
  if (issues.length > 0) throw new ValidationError(issues, operation);
  return values as { [K in keyof T]: z.output<T[K][0]> };
}
