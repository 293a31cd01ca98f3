// Reading N-API arguments: typed arrays' data (checked for element size and length) and uint32 numbers.
#pragma once
#include <napi.h>
#include <string>

namespace {

template <typename T>
T* typedData(const Napi::Value& v, const char* what, size_t minLength = 0) {
  if (!v.IsTypedArray()) throw Napi::TypeError::New(v.Env(), std::string(what) + " must be a typed array");
  auto arr = v.As<Napi::TypedArray>();
  if (arr.ElementSize() != sizeof(T)) throw Napi::TypeError::New(v.Env(), std::string(what) + " has the wrong element type");
  if (arr.ElementLength() < minLength) throw Napi::RangeError::New(v.Env(), std::string(what) + " is too short");
  auto* base = static_cast<uint8_t*>(arr.ArrayBuffer().Data()) + arr.ByteOffset();
  return reinterpret_cast<T*>(base);
}

size_t lengthOf(const Napi::Value& v) { return v.As<Napi::TypedArray>().ElementLength(); }

uint32_t u32(const Napi::Value& v) { return v.As<Napi::Number>().Uint32Value(); }


}  // namespace
