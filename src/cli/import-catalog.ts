import { importCatalogCommand } from './import-catalog-command.js';

// Exits explicitly: the exit code is the command's whatever connections are still closing.
process.exit(await importCatalogCommand(process.argv.slice(2)));
