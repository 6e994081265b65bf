/** Where the OpenAPI documents live (kept apart so light modules need not load the validator). */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SPEC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec/openapi');
