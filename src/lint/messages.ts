// A finding's text, rendered from its rule's message template: `{{name}}` takes `data.name`, written
// as a template literal writes it. Rules never build message text themselves (ESLint's
// meta.messages + messageId + data), so tests and tools can match on ids and values.
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
