// A test reporter that writes one JSON line per skipped test (its file and reason), for scripts/test.mjs to repeat
// under the final summary: the spec reporter shows a skip only next to its test, far up the output.
export default async function* skippedTests(source) {
  for await (const event of source) {
    if (event.type === 'test:pass' && event.data.skip) {
      yield `${JSON.stringify({ file: event.data.file, reason: event.data.skip })}\n`;
    }
  }
}
