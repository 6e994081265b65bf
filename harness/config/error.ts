/** A wrong setting: names the setting (and the variable or flag it came from) and why. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`config error: ${setting}: ${message}`);
  }
}
