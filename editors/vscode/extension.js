// A minimal VS Code client for `syclify lsp`: starts the server on stdio for
// CUDA and C/C++ files, passes the `syclify.*` settings (and their changes),
// and shows the migration preview as a read-only document beside the source.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

const SCHEME = 'syclify-preview';
let client;
const previews = new Map(); // preview URI -> migrated text

function settings() {
  const c = vscode.workspace.getConfiguration('syclify');
  return {
    ruleFiles: c.get('ruleFiles'),
    compileCommands: c.get('compileCommands'),
    includeDirs: c.get('includeDirs'),
    explanationUrl: c.get('explanationUrl'),
    debounceMs: c.get('debounceMs'),
  };
}

async function showPreview(uri) {
  const editor = vscode.window.activeTextEditor;
  const target = uri || (editor && editor.document.uri.toString());
  if (!target || !client) return;
  const r = await client.sendRequest('syclify/previewMigration', { textDocument: { uri: target } });
  const doc = vscode.Uri.parse(target);
  const preview = vscode.Uri.from({ scheme: SCHEME, path: doc.path.replace(/[^/]*$/, r.outputName.split('/').pop()) });
  previews.set(preview.toString(), r.text);
  changed.fire(preview);
  const shown = await vscode.workspace.openTextDocument(preview);
  await vscode.languages.setTextDocumentLanguage(shown, 'cpp');
  await vscode.window.showTextDocument(shown, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

const changed = new vscode.EventEmitter();

function activate(context) {
  const command = vscode.workspace.getConfiguration('syclify').get('path') || 'syclify';
  client = new LanguageClient(
    'syclify',
    'syclify',
    { command, args: ['lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'cuda-cpp' },
        { scheme: 'file', language: 'cpp' },
        { scheme: 'file', language: 'c' },
      ],
      initializationOptions: { syclify: settings() },
      middleware: {
        // the server's preview action runs `syclify.previewMigration`, whose
        // answer a generic client drops: show it here instead
        provideCodeActions: async (document, range, context, token, next) => {
          const actions = (await next(document, range, context, token)) || [];
          for (const a of actions) {
            const cmd = a.command && a.command.command ? a.command : null;
            if (cmd && cmd.command === 'syclify.previewMigration') {
              a.command = { title: cmd.title, command: 'syclify.showPreview', arguments: cmd.arguments };
            }
          }
          return actions;
        },
      },
    },
  );
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => previews.get(uri.toString()) || '',
    }),
    vscode.commands.registerCommand('syclify.showPreview', showPreview),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('syclify') && client) {
        client.sendNotification('workspace/didChangeConfiguration', { settings: { syclify: settings() } });
      }
    }),
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
