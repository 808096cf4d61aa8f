/** Why `source` is not a regular expression, or undefined when it is: for flow-file checks. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return `not a regular expression: ${(error as Error).message}`;
  }
}
