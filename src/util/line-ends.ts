// The outward form of a text file that says nothing about its content: a UTF-8 byte order mark and
// CRLF line ends. tritonc reads through both, and writes a file back with the line ends it had
// (Windows checkouts, git's autocrlf) and without the BOM, which Triton's parser would refuse.
export interface LineEnds {
  bom: boolean;
  crlf: boolean;
}

/** The text with LF line ends and no BOM, and what it had. */
export function plainText(text: string): { text: string; ends: LineEnds } {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  // A file counts as CRLF when its first line break is one.
  const firstBreak = body.indexOf('\n');
  const crlf = firstBreak > 0 && body[firstBreak - 1] === '\r';
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, ends: { bom, crlf } };
}

/** LF text written back with the line ends the file had (the BOM is left out). */
export function withLineEnds(text: string, ends: LineEnds): string {
  return ends.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
}
