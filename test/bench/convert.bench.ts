// npm run bench:convert — STEP to GLB of a ~400 KB assembly through the conversion worker pool, cold then warm
// (issue 5 target: under 0.5 s warm); the same stage also ends `npm run bench:cad`. See support/convert-stage.ts.
import { convertStage } from './support/convert-stage.ts';

process.stdout.write(`\nbench:convert\n${(await convertStage()).join('\n')}\n`);
