/** The interactive chat's commands, with the one-line help `/help` prints. */
export const SLASH_COMMANDS = [
  ['/help', 'this list'],
  ['/new', 'start a new conversation'],
  ['/resume <id>', 'switch to a stored conversation (its recent history is shown)'],
  ['/conversations', 'the most recent conversations'],
  [
    '/model [provider[:id] | id]',
    'show the model, or switch for the next turns (an id alone: of the current provider)',
  ],
  ['/compress', 'summarise the older part of this conversation now (shows tokens before and after)'],
  ['/usage', 'tokens used in this session'],
  ['/exit', 'quit (so does Ctrl-D; Ctrl-C twice)'],
] as const;

export type SlashCommandName =
  | 'help'
  | 'new'
  | 'resume'
  | 'conversations'
  | 'model'
  | 'compress'
  | 'usage'
  | 'exit';

export type SlashCommand = { name: SlashCommandName; argument?: string } | { name: 'unknown'; text: string };

const NAMES: ReadonlySet<string> = new Set([
  'help',
  'new',
  'resume',
  'conversations',
  'model',
  'compress',
  'usage',
  'exit',
]);
const ALIASES: Record<string, SlashCommandName> = {
  quit: 'exit',
  q: 'exit',
  '?': 'help',
  convs: 'conversations',
};

/** A line starting with `/` is a command; anything else is a message for the model. */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const [word = '', ...rest] = trimmed.slice(1).split(/\s+/);
  const name = ALIASES[word] ?? word;
  const argument = rest.join(' ');
  if (!NAMES.has(name)) return { name: 'unknown', text: trimmed };
  return { name: name as SlashCommandName, ...(argument === '' ? {} : { argument }) };
}

export function slashHelp(): string {
  const width = Math.max(...SLASH_COMMANDS.map(([usage]) => usage.length));
  return `${SLASH_COMMANDS.map(([usage, what]) => `  ${usage.padEnd(width)}  ${what}`).join('\n')}\n`;
}
