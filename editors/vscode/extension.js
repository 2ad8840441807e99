// The ndb debug type for VS Code: runs `node <ndb>/bin/ndb.mjs dap` (the Debug Adapter Protocol
// on stdio) for every session. Plain CommonJS so that the extension needs no build step.
const path = require('path');
const vscode = require('vscode');

function ndbRoot(context) {
  const configured = vscode.workspace.getConfiguration('ndb').get('root');
  // The extension lives in editors/vscode of an ndb checkout.
  return configured || path.resolve(context.extensionPath, '..', '..');
}

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('ndb', {
      createDebugAdapterDescriptor() {
        const root = ndbRoot(context);
        const node = vscode.workspace.getConfiguration('ndb').get('node') || 'node';
        return new vscode.DebugAdapterExecutable(node, [path.join(root, 'bin', 'ndb.mjs'), 'dap'], { cwd: root });
      },
    }),
    // F5 without a launch.json: debug the open Python file as a module.
    vscode.debug.registerDebugConfigurationProvider('ndb', {
      resolveDebugConfiguration(_folder, config) {
        if (!config.type && !config.request && !config.name) {
          const editor = vscode.window.activeTextEditor;
          if (!editor || editor.document.languageId !== 'python') return config;
          return { type: 'ndb', request: 'launch', name: 'ndb: current file', program: editor.document.fileName, call: '', engine: 'real', stopOnEntry: true };
        }
        return config;
      },
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
