import { describe, expect, it } from 'vitest';
import { displayPath } from './display-path.js';

describe('displayPath', () => {
  it('makes paths inside the cwd relative', () => {
    expect(displayPath('/home/dev/app/src/a.ts', '/home/dev/app')).toBe('src/a.ts');
    expect(displayPath('/home/dev/app/src/a.ts', '/home/dev/app/')).toBe('src/a.ts');
    expect(displayPath('/home/dev/app/src/', '/home/dev/app')).toBe('src');
    expect(displayPath('C:\\work\\app\\a.ts', 'C:\\work\\app')).toBe('a.ts');
  });

  it('compares Windows paths whatever the drive letter case and separators', () => {
    expect(displayPath('C:\\work\\a.ts', 'c:/work')).toBe('a.ts');
    expect(displayPath('c:/work/src/a.ts', 'C:\\work\\')).toBe('src/a.ts');
    expect(displayPath('C:\\work\\src\\a.ts', 'C:/work')).toBe('src\\a.ts');
    expect(displayPath('C:\\work', 'c:/work/')).toBe('.');
    expect(displayPath('d:\\a.ts', 'D:\\')).toBe('a.ts');
    expect(displayPath('C:\\workshop\\a.ts', 'c:/work')).toBe('C:\\workshop\\a.ts');
    expect(displayPath('D:\\work\\a.ts', 'c:/work')).toBe('D:\\work\\a.ts');
  });

  it('leaves backslashes in POSIX paths alone', () => {
    expect(displayPath('/home/dev\\app/a.ts', '/home/dev/app')).toBe('/home/dev\\app/a.ts');
  });

  it('shows the cwd itself as "."', () => {
    expect(displayPath('/home/dev/app', '/home/dev/app')).toBe('.');
    expect(displayPath('/home/dev/app/', '/home/dev/app')).toBe('.');
  });

  it('leaves other paths as they are', () => {
    expect(displayPath('/home/dev/application/a.ts', '/home/dev/app')).toBe('/home/dev/application/a.ts');
    expect(displayPath('/etc/hosts', '/home/dev/app')).toBe('/etc/hosts');
    expect(displayPath('src/a.ts', '/home/dev/app')).toBe('src/a.ts');
    expect(displayPath('/etc/hosts', '/')).toBe('/etc/hosts');
    expect(displayPath('/etc/hosts')).toBe('/etc/hosts');
  });
});
