import { describeEachDb } from '../support/pg.ts';
import { describeDb } from '../contracts/db.contract.ts';

describeEachDb(describeDb);
