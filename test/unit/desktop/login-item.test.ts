// Launch at login per platform, and keytar's path inside a packaged app.
import { describe, expect, it, vi } from 'vitest';
import { electronKeytarLoader, keytarModulePath } from '../../../src-main/desktop/keytar-loader.js';
import {
  AUTOSTART_FILE,
  HIDDEN_ARG,
  applyLaunchAtLogin,
  autostartEntry,
  type LoginItemDeps,
} from '../../../src-main/desktop/login-item.js';

function deps(over: Partial<LoginItemDeps> = {}) {
  const files = new Map<string, string>();
  const loginItems: unknown[] = [];
  const warn = vi.fn();
  const d: LoginItemDeps = {
    platform: 'linux',
    isPackaged: true,
    execPath: '/opt/OrderDesk/orderdesk',
    autostartDir: '/home/u/.config/autostart',
    setLoginItemSettings: (s) => loginItems.push(s),
    writeFile: async (p, t) => void files.set(p, t),
    removeFile: async (p) => {
      if (!files.delete(p)) throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    },
    logger: { warn },
    ...over,
  };
  return { d, files, loginItems, warn };
}

describe('autostartEntry', () => {
  it('starts the executable hidden, quoted and escaped as the desktop-entry spec asks', () => {
    const entry = autostartEntry('/opt/Order Desk/$run`x"\\y');
    expect(entry).toContain('Exec="/opt/Order Desk/\\$run\\`x\\"\\\\y" --hidden\n');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\nName=OrderDesk\n')).toBe(true);
  });
});

describe('applyLaunchAtLogin', () => {
  const file = `/home/u/.config/autostart/${AUTOSTART_FILE}`;

  it('Linux: writes an XDG autostart entry, and removes it when turned off', async () => {
    const t = deps();
    await applyLaunchAtLogin(true, t.d);
    expect(t.files.get(file)).toBe(autostartEntry('/opt/OrderDesk/orderdesk'));
    await applyLaunchAtLogin(false, t.d);
    expect(t.files.has(file)).toBe(false);
    // Already off: nothing to remove is not an error.
    await applyLaunchAtLogin(false, t.d);
    expect(t.warn).not.toHaveBeenCalled();
    expect(t.loginItems).toEqual([]);
  });

  it("macOS and Windows: Electron's login item, started hidden", async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const t = deps({ platform });
      await applyLaunchAtLogin(true, t.d);
      await applyLaunchAtLogin(false, t.d);
      expect(t.loginItems).toEqual([
        { openAtLogin: true, args: [HIDDEN_ARG] },
        { openAtLogin: false, args: [] },
      ]);
    }
  });

  it('a dev run registers nothing and says why', async () => {
    const t = deps({ isPackaged: false });
    await applyLaunchAtLogin(true, t.d);
    expect(t.files.size).toBe(0);
    expect(t.warn).toHaveBeenCalledWith(
      'launch at login applies to the installed app only (this is a dev run)',
    );
  });

  it('a write that fails is logged, never thrown', async () => {
    const t = deps({ writeFile: () => Promise.reject(new Error('EACCES: permission denied')) });
    await expect(applyLaunchAtLogin(true, t.d)).resolves.toBeUndefined();
    expect(t.warn).toHaveBeenCalledWith('launch at login could not be changed', {
      enabled: true,
      error: 'EACCES: permission denied',
    });
  });
});

describe('keytar loader', () => {
  it('requires keytar from app.asar.unpacked when packaged, from node_modules otherwise', async () => {
    expect(keytarModulePath({ isPackaged: true, resourcesPath: '/opt/OrderDesk/resources' })).toBe(
      '/opt/OrderDesk/resources/app.asar.unpacked/node_modules/keytar',
    );
    expect(keytarModulePath({ isPackaged: false, resourcesPath: '/x' })).toBe('keytar');
    const required: string[] = [];
    const loader = electronKeytarLoader({ isPackaged: true, resourcesPath: '/r' }, (id) => {
      required.push(id);
      return { getPassword: vi.fn() };
    });
    expect(required).toEqual([]);
    await loader();
    expect(required).toEqual(['/r/app.asar.unpacked/node_modules/keytar']);
  });

  it('a missing native module rejects the loader (the core then degrades), it does not throw at start', async () => {
    const loader = electronKeytarLoader({ isPackaged: true, resourcesPath: '/r' }, () => {
      throw new Error("Cannot find module '/r/app.asar.unpacked/node_modules/keytar'");
    });
    await expect(loader()).rejects.toThrow(/Cannot find module/);
  });
});
