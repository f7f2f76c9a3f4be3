// Entry point of the bundled CLI (dist/cli.js).
import { main } from './main.js';

void main();
