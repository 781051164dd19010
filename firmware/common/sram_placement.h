// Where large zero-initialised objects go in SRAM. The image holds them as
// zeros, and a card's SRAM is zeros until the image is loaded; start-up
// code clears .bss a word at a time, which for the few hundred kilobytes of
// packet buffers and rings would keep the firmware busy for milliseconds.
// Their section, .ldata, is also the one the compiler reaches with full
// 32-bit addresses under the small code model; the loader places it above
// everything else, so the rest stays within the 21-bit absolute range.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

// Places an object in .ldata. The compiler picks the addressing from the
// declaration it sees, so an extern declaration of such an object must say
// it too: otherwise other files reach it with 21-bit addresses, which link
// only while it happens to lie low in SRAM.
#define VIA_LARGE_DATA [[gnu::section(".ldata")]]

// Zero when the image is loaded, and never cleared again by start-up code;
// declare such objects with {} so that they are constant-initialised.
// constinit makes it a compile error for such an object to need a
// constructor run at start-up (which would clear it word by word after all).
#define VIA_ZEROED_AT_LOAD VIA_LARGE_DATA constinit
