/* Demonstration firmware: greets through the debug console, prints a table
 * of 64-bit factorials and a checksum with a small hand-written printf, and
 * returns the checksum folded to one byte as its exit code. */
#include <stdarg.h>
#include <stdint.h>

#include <lanai/register_map.h>

/* In .bss, so a correct count also shows that start-up cleared it. */
static uint32_t chars_written;

static void console_putc(unsigned char c) {
  lanai_mmio_write(LANAI_REG_CONSOLE, c);
  ++chars_written;
}

/* Formatting options of one conversion. */
struct format_spec {
  uint32_t width;
  unsigned char pad; /* ' ' or '0' */
  int left;          /* '-' flag: pad on the right */
};

static void put_padded(const unsigned char* text, uint32_t len, const struct format_spec* spec) {
  uint32_t fill = spec->width > len ? spec->width - len : 0u;
  if (!spec->left) {
    for (; fill != 0u; --fill)
      console_putc(spec->pad);
  }
  for (uint32_t i = 0u; i < len; ++i)
    console_putc(text[i]);
  for (; fill != 0u; --fill) /* only left-justified fields get here */
    console_putc(' ');
}

/* Digits of v in base 10 or 16, most significant first; 64-bit division
 * and remainder come from the runtime's helpers. */
static void put_unsigned(uint64_t v, uint32_t base, int negative, const struct format_spec* spec) {
  static const char digits[] = "0123456789abcdef";
  unsigned char buf[24];
  uint32_t n = 0u;
  do {
    buf[sizeof buf - 1u - n++] = (unsigned char)digits[v % base];
    v /= base;
  } while (v != 0u);
  if (negative) {
    if (spec->pad == '0' && spec->width > 0u) {
      /* The sign goes before zero padding: -0042, not 00-42. */
      struct format_spec rest = *spec;
      console_putc('-');
      rest.width = spec->width - 1u;
      put_padded(buf + sizeof buf - n, n, &rest);
      return;
    }
    buf[sizeof buf - 1u - n++] = '-';
  }
  put_padded(buf + sizeof buf - n, n, spec);
}

/* printf subset: %%, %c, %s, %d, %u, %x with optional '-' or '0' flag,
 * width, and the 'll' length for 64-bit arguments. */
static void demo_printf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  for (const unsigned char* p = (const unsigned char*)fmt; *p != 0u; ++p) {
    if (*p != '%') {
      console_putc(*p);
      continue;
    }
    struct format_spec spec = {0u, ' ', 0};
    ++p;
    for (;; ++p) {
      if (*p == '-')
        spec.left = 1;
      else if (*p == '0')
        spec.pad = '0';
      else
        break;
    }
    for (; *p >= '0' && *p <= '9'; ++p)
      spec.width = spec.width * 10u + (uint32_t)(*p - '0');
    int wide = 0;
    if (p[0] == 'l' && p[1] == 'l') {
      wide = 1;
      p += 2;
    }
    switch (*p) {
    case 'c': {
      unsigned char c = (unsigned char)va_arg(args, int);
      put_padded(&c, 1u, &spec);
      break;
    }
    case 's': {
      const unsigned char* s = va_arg(args, const unsigned char*);
      uint32_t len = 0u;
      while (s[len] != 0u)
        ++len;
      put_padded(s, len, &spec);
      break;
    }
    case 'd': {
      int64_t v = wide ? va_arg(args, int64_t) : va_arg(args, int32_t);
      uint64_t magnitude = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
      put_unsigned(magnitude, 10u, v < 0, &spec);
      break;
    }
    case 'u':
    case 'x': {
      uint64_t v = wide ? va_arg(args, uint64_t) : va_arg(args, uint32_t);
      put_unsigned(v, *p == 'x' ? 16u : 10u, 0, &spec);
      break;
    }
    case '%':
      console_putc('%');
      break;
    default: /* unknown conversion: show it rather than guess */
      console_putc('%');
      if (*p == 0u) {
        va_end(args);
        return;
      }
      console_putc(*p);
      break;
    }
  }
  va_end(args);
}

/* FNV-1a over the eight bytes of v, taken most significant first by
 * shifting, so the result does not depend on memory byte order. */
static uint32_t fnv1a_u64(uint32_t h, uint64_t v) {
  for (int32_t shift = 56; shift >= 0; shift -= 8) {
    h ^= (uint32_t)(v >> shift) & 0xFFu;
    h *= 16777619u;
  }
  return h;
}

int main(void) {
  demo_printf("hello from the LANai\n");
  demo_printf("%3s  %20s  %s\n", "n", "n!", "hex");
  uint32_t checksum = 2166136261u;
  uint64_t factorial = 1u;
  for (uint32_t n = 0u; n <= 20u; ++n) { /* 21! no longer fits in 64 bits */
    if (n > 0u)
      factorial *= n;
    demo_printf("%3u  %20llu  %016llx\n", n, factorial, factorial);
    checksum = fnv1a_u64(checksum, factorial);
  }
  int64_t big = -(int64_t)factorial - 12345;
  /* clang-14 passes variadic 64-bit values 4-byte aligned but reads them
   * 8-byte aligned: one 32-bit argument in front keeps them in step. */
  demo_printf("%s %lld / 7 = %lld, remainder %lld\n", "signed:", big, big / 7, big % 7);
  demo_printf("padding: [%-6d] [%06d] [%c]\n", -42, -42, 'L');
  uint32_t exit_code = (checksum ^ (checksum >> 8) ^ (checksum >> 16) ^ (checksum >> 24)) & 0xFFu;
  demo_printf("checksum: 0x%08x, exit code %u\n", checksum, exit_code);
  demo_printf("characters written before this line: %u\n", chars_written);
  return (int)exit_code;
}
