// Runs in every test file: its temporary directories go when its tests are done.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
