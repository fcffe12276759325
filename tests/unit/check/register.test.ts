import { describe, expect, it } from 'vitest';
import { proseOf, registerMarks } from '../../../src/markdown/register';

const marks = (text: string) => registerMarks(text).map((m) => `${m.register} ${m.words}`);

describe('the register of a Portuguese text (I18N004)', () => {
  it('reads the texts the site had in both registers', () => {
    expect(marks('Toca no cartão para o virar')).toEqual(['tu Toca']);
    expect(marks('Novos artigos no teu e-mail.')).toEqual(['tu teu']);
    expect(marks('Toque para virar e siga a ligação para a minha experiência.')).toEqual(['você Toque']);
    expect(
      marks('Aqui escrevo. Escolha uma categoria abaixo ou pesquise um artigo na língua em que está a ler.'),
    ).toEqual(['você Escolha']);
    expect(marks('Há mais música a caminho: volte em breve para ler novos artigos.')).toEqual(['você volte']);
    expect(marks('Pergunte-me outra vez daqui a cinco anos. Se quiser ver como são os meus dias')).toEqual([
      'você Pergunte-me',
      'você Se quiser',
    ]);
    expect(marks('## Comece por O Medo Come a Alma\n\nSe só vires um, que seja este.')).toEqual([
      'você Comece',
      'tu vires',
    ]);
    expect(marks('Imagine que investe 200 € por mês.')).toEqual(['você Imagine']);
  });

  it('does not take impersonal forms, statements or nouns for an order', () => {
    expect(marks('Remova-se o contentor `db`, arranque-se outro com o mesmo volume.')).toEqual([]);
    expect(marks('Começa em 1952, em Nova Jérsia. Troca de táxi para despistar um detetive.')).toEqual([]);
    expect(marks('Se a Euribor tiver descido, a TAN desce. Se tiver subido, a prestação sobe.')).toEqual([]);
    expect(marks('Toque de recolher às dez. Escolha difícil, a de ontem. Leste da Europa.')).toEqual([]);
    expect(marks('Pesquisa (Coming soon)')).toEqual([]);
  });

  it("leaves code, link targets, directive attributes and quotations out of an article's prose", () => {
    const body =
      'Diz-se «Leia isto» e segue.\n\n```bash\n# Use o comando\n```\n\nVer [aqui](/blog/tech/Site). `Veja` não.\n';
    const prose = proseOf(body);
    expect(prose).toHaveLength(body.length);
    expect(marks(prose)).toEqual([]);
  });
});
