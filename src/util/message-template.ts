// Message templates: `{{name}}` placeholders filled from a finding's data, as ESLint's
// meta.messages + messageId + data. The text is made from the template; code never builds it, so
// tests and tools match on ids and values. The lint engine renders rules' findings with it, and the
// text-format parser its diagnostics (src/pbtxt/messages.ts, which are the syntax rule's messages).

/** The placeholder names of a template, as a type. */
export type Placeholders<S extends string> = S extends `${string}{{${infer P}}}${infer Rest}` ? P | Placeholders<Rest> : never;

/** What a placeholder may hold: it is rendered as a template literal would render it. */
export type MessageValue = string | number | bigint | boolean;

/** A finding's text, rendered from its template: `{{name}}` takes `data.name`, written as a template literal writes it. */
export function renderMessage(template: string, data: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    if (!(name in data)) throw new Error(`the message "${template}" needs data.${name}`);
    return String(data[name]);
  });
}

/** The placeholder names a template uses, in order (the docs and tests read them). */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
}
