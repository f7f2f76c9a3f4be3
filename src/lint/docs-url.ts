// Where a rule's documentation page is published: SARIF helpUri and terminal links point here.
// The pages are docs/rules/<id>.md in this repository (and in the npm package).
export const RULE_DOCS_BASE_URL = 'https://github.com/tritonc/tritonc/blob/main/docs/rules/';

export const ruleDocsUrl = (id: string): string => `${RULE_DOCS_BASE_URL}${id}.md`;
