import * as z from 'zod';

/** `limit` of the cursor form: 1..100, default 25 (docs/decisions.md#two-list-forms-for-products). */
export const cursorLimit = z.coerce
  .number({ error: 'limit must be an integer.' })
  .int({ error: 'limit must be an integer.' })
  .min(1, { error: 'limit must be at least 1.' })
  .max(100, { error: 'limit must be at most 100.' })
  .default(25);

/** The cursor form's query: `limit` and `starting_after` (the id of the previous page's last item). */
export const cursorQuerySchema = (idDescription: string, id: z.ZodType<string> = z.string()) =>
  z.strictObject({
    limit: cursorLimit,
    starting_after: id
      .check(z.minLength(1, { error: `starting_after must be the ${idDescription} of the last item of the previous page.` }))
      .optional(),
  });
