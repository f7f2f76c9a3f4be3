#!/usr/bin/env node
// Launcher: the CLI is bundled into one file for a fast cold start.
import '../dist/cli.js';
