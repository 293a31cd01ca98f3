/** The benches' command-line options: `--name value` pairs and bare `--flag`s of this process. */
const args = process.argv.slice(2);

/** The value after `name`, or `fallback` when it is absent. */
export function option(name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
}
