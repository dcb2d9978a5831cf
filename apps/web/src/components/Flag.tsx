import type { Language } from '../lib/language';

const star = (cx: number, cy: number, r: number) => {
  const pts = Array.from({ length: 10 }, (_, i) => {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.4 : r;
    return `${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`;
  });
  return pts.join(' ');
};

/** Small flag drawings for the language menu (emoji flags do not render on every system). */
export default function Flag({ code, size = 22 }: { code: Language; size?: number }) {
  const h = Math.round((size * 2) / 3);
  return (
    <svg width={size} height={h} viewBox="0 0 30 20" aria-hidden style={{ borderRadius: 3, display: 'block', boxShadow: '0 0 0 1px rgba(0,0,0,0.12)' }}>
      {code === 'zh_CN' && (
        <>
          <rect width="30" height="20" fill="#de2910" />
          <polygon points={star(6, 6, 3.6)} fill="#ffde00" />
          {[
            [11, 2.5],
            [13, 4.8],
            [13, 7.8],
            [11, 10],
          ].map(([x, y]) => (
            <polygon key={`${x}-${y}`} points={star(x, y, 1.1)} fill="#ffde00" />
          ))}
        </>
      )}
      {code === 'zh_HK' && (
        <>
          <rect width="30" height="20" fill="#de2910" />
          {[0, 72, 144, 216, 288].map((a) => (
            <ellipse key={a} cx="15" cy="6.6" rx="2" ry="3.4" fill="#fff" transform={`rotate(${a} 15 10)`} />
          ))}
        </>
      )}
      {code === 'en_US' && (
        <>
          <rect width="30" height="20" fill="#fff" />
          {Array.from({ length: 7 }, (_, i) => (
            <rect key={i} y={(i * 20) / 6.5} width="30" height={20 / 13} fill="#b22234" />
          ))}
          <rect width="13" height="10.8" fill="#3c3b6e" />
        </>
      )}
      {code === 'ja_JP' && (
        <>
          <rect width="30" height="20" fill="#fff" />
          <circle cx="15" cy="10" r="6" fill="#bc002d" />
        </>
      )}
    </svg>
  );
}
