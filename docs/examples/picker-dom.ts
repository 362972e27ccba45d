// A creator picker bound to a plain DOM list (type-checked by `npm test`). `gc` is the facade an adapter's
// createGameCampaign returns; the picker holds the state, this file only draws it and forwards the player's input.
import type { CreatorPickerState, GameCampaign } from 'game-campaign-sdk';

export function mountCreatorPicker(gc: GameCampaign, root: HTMLElement, campaignId: string): () => void {
  const picker = gc.picker({ campaignId });
  const input = root.appendChild(document.createElement('input'));
  const list = root.appendChild(document.createElement('ul'));
  const status = root.appendChild(document.createElement('p'));
  const confirm = root.appendChild(document.createElement('button'));
  confirm.textContent = 'Boost';
  input.placeholder = 'Search creators (1-10 characters)';
  input.addEventListener('input', () => picker.search(input.value));
  confirm.addEventListener('click', () => void picker.confirm());

  const render = (state: CreatorPickerState) => {
    const shown = state.results ?? state.creators;
    list.replaceChildren(...shown.map((creator) => {
      const item = document.createElement('li');
      item.textContent = `${creator.creatorName} (${creator.creatorKey})${creator.creatorKey === state.boost?.creatorKey ? ' - boosted' : ''}`;
      item.setAttribute('aria-selected', String(creator.creatorKey === state.selected));
      item.addEventListener('click', () => picker.select(creator.creatorKey));
      return item;
    }));
    confirm.disabled = !state.canConfirm;
    status.textContent = state.loading || state.searching ? 'Loading…'
      : state.confirming ? 'Boosting…'
      : state.cooldownDays ? `You can change your boost in ${state.cooldownDays} days.`
      : state.error ? state.error.message : '';
  };
  picker.on('change', render);
  render(picker.state);
  return () => picker.dispose();
}
