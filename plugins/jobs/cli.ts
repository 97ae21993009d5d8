/** `crm job list` and `crm job run <name|id>` (a run here is logged like any other). */
import type { CliCommand, CliContext } from '../../host';
import { KernelError } from '../../kernel';
import type { JobRunner } from './runner';

interface JobListRow {
  id: number;
  name: string | null;
  api_entity: string;
  api_action: string;
  run_frequency: string | null;
  is_active: boolean;
  last_run: unknown;
  scheduled_run_date: unknown;
}

export function jobCliCommands(): CliCommand[] {
  return [
    {
      name: 'job list',
      description: 'List the scheduled jobs: id, name, API call, frequency, active, last and next run',
      run: async (_args: string[], _opts: Record<string, unknown>, cli: CliContext) => {
        const rows = (await cli.db('crm_job').orderBy('id')) as JobListRow[];
        const list = rows.map((row) => ({
          id: row.id,
          name: row.name,
          call: `${row.api_entity}.${row.api_action}`,
          run_frequency: row.run_frequency,
          is_active: row.is_active,
          last_run: row.last_run,
          scheduled_run_date: row.scheduled_run_date,
        }));
        return JSON.stringify(list, null, 2);
      },
    },
    {
      name: 'job run',
      description: 'Run one scheduled job now, by id or name (logged in JobLog); without one, every due job',
      arguments: [{ name: 'job', description: 'the job id or name (optional)', required: false }],
      run: async (args: string[], _opts: Record<string, unknown>, cli: CliContext) => {
        const runner = cli.services.jobRunner as JobRunner;
        if (!args[0]) return JSON.stringify(await runner.runDue(), null, 2);
        const match = /^[0-9]+$/.test(args[0]) ? { id: Number(args[0]) } : { name: args[0] };
        const rows = (await cli.db('crm_job').where(match).select('id')) as Array<{ id: number }>;
        if (rows.length !== 1)
          throw new KernelError('E_INVALID_PARAMS', `Expected one job named ${args[0]} but found ${rows.length}`);
        return JSON.stringify(await runner.run(Number(rows[0].id), 'execute'), null, 2);
      },
    },
  ];
}
