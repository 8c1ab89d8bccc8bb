//===- RelayParser.cpp - TVM Relay text lexer and parser ------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Follows TVM's src/parser/{tokenizer.h,parser.cc} for the text format that
// `IRModule.astext()` prints (version 0.0.5), accepting a few things TVM
// prints but cannot parse back (`%aten::conv.weight` parameter names).
//
//===----------------------------------------------------------------------===//

#include "RelayParser.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace mlc::relay_text;
using llvm::SMLoc;
using llvm::StringRef;

mlir::Location mlc::relay_text::getLocation(llvm::SourceMgr &sourceMgr,
                                            mlir::MLIRContext *context,
                                            SMLoc loc) {
  unsigned bufferId = sourceMgr.getMainFileID();
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  if (!loc.isValid())
    return mlir::FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0,
                                     0);
  auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
  return mlir::FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                                   col);
}

namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class Tok {
  Eof,
  LocalVar,  // %x, %0 (spelling without '%')
  GlobalVar, // @f
  Ident,     // nn.conv2d, Tensor, float32, True, meta, ...
  Int,
  Float,
  String,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semi,
  Colon,
  Equal,
  Dot,
  Arrow,
  Question,
  Hash,
};

struct Token {
  Tok kind = Tok::Eof;
  SMLoc loc;
  StringRef spelling;
  // Int / Float.
  int64_t intValue = 0;
  double floatValue = 0;
  std::string dtype;
  // String (unescaped).
  std::string stringValue;
  /// Text of a `/* ty=... */` comment right after this token (after "ty=").
  StringRef typeComment;
};

const char *kindName(Tok kind) {
  switch (kind) {
  case Tok::Eof:
    return "end of input";
  case Tok::LocalVar:
    return "local variable";
  case Tok::GlobalVar:
    return "global name";
  case Tok::Ident:
    return "identifier";
  case Tok::Int:
    return "integer";
  case Tok::Float:
    return "float";
  case Tok::String:
    return "string";
  case Tok::LParen:
    return "'('";
  case Tok::RParen:
    return "')'";
  case Tok::LBracket:
    return "'['";
  case Tok::RBracket:
    return "']'";
  case Tok::LBrace:
    return "'{'";
  case Tok::RBrace:
    return "'}'";
  case Tok::Comma:
    return "','";
  case Tok::Semi:
    return "';'";
  case Tok::Colon:
    return "':'";
  case Tok::Equal:
    return "'='";
  case Tok::Dot:
    return "'.'";
  case Tok::Arrow:
    return "'->'";
  case Tok::Question:
    return "'?'";
  case Tok::Hash:
    return "'#'";
  }
  return "token";
}

bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

class Lexer {
public:
  Lexer(StringRef buffer,
        llvm::function_ref<void(SMLoc, const llvm::Twine &)> emitError)
      : buffer(buffer), cur(buffer.begin()), emitError(emitError) {}

  /// Lexes the whole buffer (up to `#[metadata]`). False after an error.
  bool lexAll(std::vector<Token> &tokens, bool &sawMetadata, SMLoc &metaLoc);

private:
  bool skipSpaceAndComments(std::vector<Token> &tokens);
  bool lexNumber(Token &tok, bool integerOnly);
  bool lexString(Token &tok);
  /// TVM prints non-finite float32 scalars as `inff`, `-inff`, `nanf` (with
  /// f16/f64 suffixes for other widths): turns such a token into a Float.
  static bool lexNonFinite(Token &tok, bool negative);
  char peek(size_t n = 0) const {
    return cur + n < buffer.end() ? cur[n] : '\0';
  }
  SMLoc loc(const char *p) const { return SMLoc::getFromPointer(p); }

  StringRef buffer;
  const char *cur;
  llvm::function_ref<void(SMLoc, const llvm::Twine &)> emitError;
};

bool Lexer::skipSpaceAndComments(std::vector<Token> &tokens) {
  while (cur < buffer.end()) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++cur;
      continue;
    }
    if (c == '/' && peek(1) == '/') {
      while (cur < buffer.end() && *cur != '\n')
        ++cur;
      continue;
    }
    if (c == '/' && peek(1) == '*') {
      const char *start = cur;
      cur += 2;
      unsigned depth = 1;
      while (cur < buffer.end() && depth) {
        if (*cur == '/' && peek(1) == '*') {
          ++depth;
          cur += 2;
        } else if (*cur == '*' && peek(1) == '/') {
          --depth;
          cur += 2;
        } else {
          ++cur;
        }
      }
      if (depth) {
        emitError(loc(start), "unterminated '/*' comment");
        return false;
      }
      StringRef text(start + 2, cur - start - 4);
      text = text.ltrim();
      if (text.starts_with("ty=") && !tokens.empty() &&
          tokens.back().typeComment.empty())
        tokens.back().typeComment = text.drop_front(3);
      continue;
    }
    break;
  }
  return true;
}

bool Lexer::lexNumber(Token &tok, bool integerOnly) {
  const char *start = cur;
  bool negative = false;
  if (*cur == '-' || *cur == '+') {
    negative = *cur == '-';
    ++cur;
  }
  const char *digits = cur;
  while (llvm::isDigit(peek()))
    ++cur;
  bool isFloat = false;
  if (!integerOnly) {
    if (peek() == '.' && llvm::isDigit(peek(1))) {
      isFloat = true;
      ++cur;
      while (llvm::isDigit(peek()))
        ++cur;
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (llvm::isDigit(peek(1)) ||
         ((peek(1) == '-' || peek(1) == '+') && llvm::isDigit(peek(2))))) {
      isFloat = true;
      cur += 2;
      while (llvm::isDigit(peek()))
        ++cur;
    }
  }
  StringRef number(digits, cur - digits);
  std::string suffix;
  char kind = 0;
  if (!integerOnly && (peek() == 'f' || peek() == 'i' || peek() == 'u')) {
    kind = *cur++;
    const char *suffixStart = cur;
    while (llvm::isDigit(peek()))
      ++cur;
    suffix = std::string(suffixStart, cur);
  }
  if (isIdentChar(peek())) {
    emitError(loc(start), "invalid numeric literal '" +
                              StringRef(start, cur - start + 1) + "'");
    return false;
  }
  tok.loc = loc(start);
  tok.spelling = StringRef(start, cur - start);
  if (kind == 'f' || (kind == 0 && isFloat)) {
    unsigned width = suffix.empty() ? 32 : 0;
    if (!suffix.empty() && (suffix == "16" || suffix == "32" || suffix == "64"))
      width = std::stoi(suffix);
    if (!width) {
      emitError(tok.loc, "invalid float literal suffix 'f" + suffix +
                             "' (expected f, f16, f32 or f64)");
      return false;
    }
    tok.kind = Tok::Float;
    tok.dtype = "float" + std::to_string(width);
    std::string text = number.str();
    errno = 0;
    char *end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      emitError(tok.loc, "invalid float literal '" + tok.spelling + "'");
      return false;
    }
    tok.floatValue = negative ? -value : value;
    return true;
  }
  if (isFloat) {
    emitError(tok.loc,
              "integer suffix on a fractional literal '" + tok.spelling + "'");
    return false;
  }
  unsigned width = 32;
  if (kind) {
    if (suffix == "8" || suffix == "16" || suffix == "32" || suffix == "64" ||
        (kind == 'u' && suffix == "1"))
      width = std::stoi(suffix);
    else
      width = 0;
    if (!width) {
      emitError(tok.loc, llvm::Twine("invalid integer literal suffix '") +
                             StringRef(&kind, 1) + suffix +
                             "' (expected i8, i16, i32, i64 or u8...u64)");
      return false;
    }
  }
  uint64_t magnitude;
  if (number.empty() || number.getAsInteger(10, magnitude) ||
      magnitude > (negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX))) {
    emitError(tok.loc,
              "integer literal '" + tok.spelling + "' is out of range");
    return false;
  }
  tok.kind = Tok::Int;
  tok.intValue = negative ? static_cast<int64_t>(0 - magnitude)
                          : static_cast<int64_t>(magnitude);
  tok.dtype = kind == 'u'   ? (width == 1 ? "bool" : "uint" + suffix)
              : kind == 'i' ? "int" + suffix
                            : "int32";
  return true;
}

bool Lexer::lexNonFinite(Token &tok, bool negative) {
  StringRef text = tok.spelling;
  if (negative)
    text = text.drop_front();
  double value;
  if (text.consume_front("inf"))
    value = std::numeric_limits<double>::infinity();
  else if (text.consume_front("nan"))
    value = std::numeric_limits<double>::quiet_NaN();
  else
    return false;
  if (!text.consume_front("f"))
    return false;
  if (!text.empty() && text != "16" && text != "32" && text != "64")
    return false;
  tok.kind = Tok::Float;
  tok.floatValue = negative ? -value : value;
  tok.dtype = "float" + (text.empty() ? std::string("32") : text.str());
  return true;
}

bool Lexer::lexString(Token &tok) {
  const char *start = cur++;
  std::string value;
  while (true) {
    if (cur >= buffer.end() || *cur == '\n') {
      emitError(loc(start), "unterminated string literal");
      return false;
    }
    char c = *cur++;
    if (c == '"')
      break;
    if (c == '\\') {
      if (cur >= buffer.end()) {
        emitError(loc(start), "unterminated string literal");
        return false;
      }
      char e = *cur++;
      switch (e) {
      case 'n':
        value.push_back('\n');
        break;
      case 't':
        value.push_back('\t');
        break;
      case '\\':
      case '"':
      case '\'':
        value.push_back(e);
        break;
      default:
        emitError(loc(cur - 2), "unknown escape sequence in string");
        return false;
      }
      continue;
    }
    value.push_back(c);
  }
  tok.kind = Tok::String;
  tok.loc = loc(start);
  tok.spelling = StringRef(start, cur - start);
  tok.stringValue = std::move(value);
  return true;
}

bool Lexer::lexAll(std::vector<Token> &tokens, bool &sawMetadata,
                   SMLoc &metaLoc) {
  while (true) {
    if (!skipSpaceAndComments(tokens))
      return false;
    Token tok;
    if (cur >= buffer.end()) {
      tok.kind = Tok::Eof;
      tok.loc = loc(buffer.end());
      tokens.push_back(tok);
      return true;
    }
    const char *start = cur;
    tok.loc = loc(start);
    char c = *cur;
    auto simple = [&](Tok kind, size_t len = 1) {
      tok.kind = kind;
      tok.spelling = StringRef(cur, len);
      cur += len;
    };
    switch (c) {
    case '(':
      simple(Tok::LParen);
      break;
    case ')':
      simple(Tok::RParen);
      break;
    case '[':
      simple(Tok::LBracket);
      break;
    case ']':
      simple(Tok::RBracket);
      break;
    case '{':
      simple(Tok::LBrace);
      break;
    case '}':
      simple(Tok::RBrace);
      break;
    case ',':
      simple(Tok::Comma);
      break;
    case ';':
      simple(Tok::Semi);
      break;
    case ':':
      simple(Tok::Colon);
      break;
    case '=':
      simple(Tok::Equal);
      break;
    case '?':
      simple(Tok::Question);
      break;
    case '.':
      simple(Tok::Dot);
      break;
    case '#': {
      // `#[metadata]` ends the program text: everything after it is TVM's
      // JSON metadata, which the importer does not read.
      StringRef rest(cur + 1, buffer.end() - cur - 1);
      rest = rest.ltrim(" \t");
      if (rest.consume_front("[")) {
        rest = rest.ltrim(" \t");
        if (rest.consume_front("metadata")) {
          rest = rest.ltrim(" \t");
          if (rest.starts_with("]")) {
            sawMetadata = true;
            metaLoc = tok.loc;
            tok.kind = Tok::Eof;
            tokens.push_back(tok);
            return true;
          }
        }
      }
      simple(Tok::Hash);
      break;
    }
    case '"':
      if (!lexString(tok))
        return false;
      break;
    case '%':
    case '@': {
      ++cur;
      const char *nameStart = cur;
      if (c == '%' && llvm::isDigit(peek())) {
        // Graph bindings: %0, %12 (a following '.N' is a projection). Digit
        // groups that end in '.name' make a name instead: front ends name
        // parameters by module path, and nn.Sequential's start with digits
        // (%0.weight, %0.1.bias); a projection is never followed by a name.
        size_t ahead = 0;
        while (llvm::isDigit(peek(ahead)))
          ++ahead;
        while (peek(ahead) == '.' && llvm::isDigit(peek(ahead + 1))) {
          ++ahead;
          while (llvm::isDigit(peek(ahead)))
            ++ahead;
        }
        bool isName = peek(ahead) == '.' && isIdentStart(peek(ahead + 1));
        while (llvm::isDigit(peek()))
          ++cur;
        if (isName)
          while (isIdentChar(peek()) ||
                 ((peek() == '.' || peek() == ':') &&
                  (isIdentChar(peek(1)) || peek(1) == ':')))
            ++cur;
      } else {
        // Names as TVM prints them, including frontend names such as
        // %aten::_convolution_0.weight or %layer.0.bias. Projections written
        // as %x.0 are split off by the importer, which knows the scope.
        while (isIdentChar(peek()) ||
               ((peek() == '.' || peek() == ':') &&
                (isIdentChar(peek(1)) || peek(1) == ':')))
          ++cur;
      }
      if (cur == nameStart) {
        emitError(tok.loc, llvm::Twine("expected a name after '") +
                               StringRef(&c, 1) + "'");
        return false;
      }
      tok.kind = c == '%' ? Tok::LocalVar : Tok::GlobalVar;
      tok.spelling = StringRef(nameStart, cur - nameStart);
      break;
    }
    case '-':
      if (peek(1) == '>') {
        simple(Tok::Arrow, 2);
        break;
      }
      if (llvm::isDigit(peek(1)) ||
          (peek(1) == '.' && llvm::isDigit(peek(2)))) {
        if (!lexNumber(tok, /*integerOnly=*/false))
          return false;
        break;
      }
      if (StringRef(cur + 1, buffer.end() - cur - 1).starts_with("inf")) {
        const char *save = cur++;
        while (isIdentChar(peek()))
          ++cur;
        tok.spelling = StringRef(start, cur - start);
        if (lexNonFinite(tok, /*negative=*/true))
          break;
        cur = save;
      }
      emitError(tok.loc, "unexpected character '-'");
      return false;
    default:
      if (llvm::isDigit(c)) {
        // After '.', only an integer (the index of `%0.1.2`).
        bool afterDot = !tokens.empty() && tokens.back().kind == Tok::Dot;
        if (!lexNumber(tok, afterDot))
          return false;
        break;
      }
      if (isIdentStart(c)) {
        // Operator names are dotted: nn.conv2d, image.resize2d.
        while (isIdentChar(peek()) || (peek() == '.' && isIdentStart(peek(1))))
          ++cur;
        tok.kind = Tok::Ident;
        tok.spelling = StringRef(start, cur - start);
        lexNonFinite(tok, /*negative=*/false);
        break;
      }
      if (llvm::isPrint(c))
        emitError(tok.loc, llvm::Twine("unexpected character '") +
                               StringRef(&c, 1) + "'");
      else
        emitError(tok.loc, "unexpected byte 0x" +
                               llvm::utohexstr(static_cast<unsigned char>(c)));
      return false;
    }
    tokens.push_back(std::move(tok));
  }
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

class Parser {
public:
  Parser(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
         std::vector<Token> tokens)
      : sourceMgr(sourceMgr), context(context), tokens(std::move(tokens)) {}

  bool parseModule(ModuleNode &module);

  /// Parses a type from the text of a `/* ty=... */` comment.
  static std::optional<TypeNode> parseTypeComment(StringRef text);

private:
  const Token &tok() const { return tokens[pos]; }
  const Token &peekTok(size_t n = 1) const {
    return tokens[std::min(pos + n, tokens.size() - 1)];
  }
  bool is(Tok kind) const { return tok().kind == kind; }
  bool isIdent(StringRef name) const {
    return is(Tok::Ident) && tok().spelling == name;
  }
  void consume() {
    if (pos + 1 < tokens.size())
      ++pos;
  }
  bool consumeIf(Tok kind) {
    if (!is(kind))
      return false;
    consume();
    return true;
  }
  bool error(SMLoc loc, const llvm::Twine &msg) {
    if (!quiet)
      mlir::emitError(getLocation(sourceMgr, context, loc), msg);
    return false;
  }
  bool errorHere(const llvm::Twine &msg) { return error(tok().loc, msg); }
  bool expect(Tok kind, const llvm::Twine &context) {
    if (consumeIf(kind))
      return true;
    return errorHere(llvm::Twine("expected ") + kindName(kind) + " " + context +
                     ", found " + describe(tok()));
  }
  static std::string describe(const Token &token) {
    if (token.kind == Tok::Eof)
      return "end of input";
    if (token.kind == Tok::LocalVar)
      return "'%" + token.spelling.str() + "'";
    if (token.kind == Tok::GlobalVar)
      return "'@" + token.spelling.str() + "'";
    return "'" + token.spelling.str() + "'";
  }

  bool parseDef(ModuleNode &module, bool anonymousMain = false);
  bool parseSeq(Expr &seq, Tok terminator);
  bool parseExpr(ExprPtr &result);
  bool parsePrimary(ExprPtr &result);
  bool parseCallArgs(Expr &call);
  bool parseAttrValue(AttrNode &attr, unsigned depth = 0);
  bool parseType(TypeNode &type, unsigned depth = 0);
  void attachTypeComment(Expr &expr);

  llvm::SourceMgr &sourceMgr;
  mlir::MLIRContext *context;
  std::vector<Token> tokens;
  size_t pos = 0;
  unsigned depth = 0;
  /// When parsing `/* ty= */` comments: no diagnostics, failure is silent.
  bool quiet = false;
};

/// Nesting limit: deeper input is rejected instead of exhausting the stack.
constexpr unsigned kMaxDepth = 256;

struct DepthGuard {
  DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
  unsigned &depth;
};

bool Parser::parseModule(ModuleNode &module) {
  // #[version = "0.0.5"]
  if (is(Tok::Hash)) {
    SMLoc loc = tok().loc;
    consume();
    if (!expect(Tok::LBracket, "after '#'"))
      return false;
    if (!isIdent("version"))
      return errorHere("expected 'version' in '#[...]' header");
    consume();
    if (!expect(Tok::Equal, "after 'version'"))
      return false;
    if (!is(Tok::String))
      return errorHere("expected a version string");
    std::string version = tok().stringValue;
    consume();
    if (!expect(Tok::RBracket, "to close the version header"))
      return false;
    if (version != "0.0.5" && version != "0.0.4")
      mlir::emitWarning(getLocation(sourceMgr, context, loc))
          << "Relay text version \"" << version
          << "\" is not 0.0.5; importing it as 0.0.5";
  }

  // `print(mod["main"])` shows a bare function literal: import it as @main.
  if (isIdent("fn") && peekTok().kind == Tok::LParen) {
    if (!parseDef(module, /*anonymousMain=*/true))
      return false;
    if (!is(Tok::Eof))
      return errorHere("expected end of input after the function, found " +
                       describe(tok()));
    return true;
  }

  if (isIdent("def") || is(Tok::Eof)) {
    while (!is(Tok::Eof)) {
      if (isIdent("def")) {
        if (!parseDef(module))
          return false;
        continue;
      }
      if (isIdent("type"))
        return errorHere("algebraic data type definitions ('type') are not "
                         "supported");
      return errorHere("expected 'def' or end of input, found " +
                       describe(tok()));
    }
    if (module.functions.empty())
      return errorHere("the Relay program defines no function");
    return true;
  }

  // An expression program (what `astext()` prints for a bare expression):
  // it becomes @main, with its free variables as parameters.
  FuncNode main;
  main.name = "main";
  main.loc = tok().loc;
  main.body = std::make_unique<Expr>(Expr::Seq, tok().loc);
  if (!parseSeq(*main.body, Tok::Eof))
    return false;
  module.functions.push_back(std::move(main));
  return true;
}

bool Parser::parseDef(ModuleNode &module, bool anonymousMain) {
  FuncNode func;
  func.loc = tok().loc;
  consume(); // def / fn
  if (anonymousMain) {
    func.name = "main";
  } else {
    if (!is(Tok::GlobalVar))
      return errorHere("expected a global function name ('@name') after 'def'");
    func.name = tok().spelling.str();
    consume();
  }
  if (is(Tok::LBracket))
    return errorHere("generic functions (type parameters) are not supported");
  if (!expect(Tok::LParen, "to start the parameter list"))
    return false;
  if (!consumeIf(Tok::RParen)) {
    while (true) {
      if (is(Tok::LocalVar)) {
        Param param;
        param.name = tok().spelling.str();
        param.loc = tok().loc;
        consume();
        if (consumeIf(Tok::Colon)) {
          TypeNode type;
          if (!parseType(type))
            return false;
          param.type = std::move(type);
        }
        func.params.push_back(std::move(param));
      } else if (is(Tok::Ident) && peekTok().kind == Tok::Equal) {
        // Function attributes (`Primitive=1`) are accepted and dropped.
        consume();
        consume();
        AttrNode ignored;
        if (!parseAttrValue(ignored))
          return false;
      } else {
        return errorHere("expected a parameter ('%name: type'), found " +
                         describe(tok()));
      }
      if (consumeIf(Tok::RParen))
        break;
      if (!expect(Tok::Comma, "or ')' in the parameter list"))
        return false;
    }
  }
  if (consumeIf(Tok::Arrow)) {
    TypeNode type;
    if (!parseType(type))
      return false;
    func.resultType = std::move(type);
  }
  if (!expect(Tok::LBrace, "to start the function body"))
    return false;
  func.body = std::make_unique<Expr>(Expr::Seq, tok().loc);
  if (!parseSeq(*func.body, Tok::RBrace))
    return false;
  consume(); // '}'
  module.functions.push_back(std::move(func));
  return true;
}

bool Parser::parseSeq(Expr &seq, Tok terminator) {
  while (true) {
    if (isIdent("let")) {
      Binding binding;
      binding.kind = Binding::Let;
      binding.loc = tok().loc;
      consume();
      if (!is(Tok::LocalVar))
        return errorHere("expected a variable ('%name') after 'let'");
      binding.name = tok().spelling.str();
      consume();
      if (consumeIf(Tok::Colon)) {
        TypeNode type;
        if (!parseType(type))
          return false;
        binding.type = std::move(type);
      }
      if (!expect(Tok::Equal, "in 'let' binding") ||
          !parseExpr(binding.value) ||
          !expect(Tok::Semi, "after the 'let' value"))
        return false;
      seq.bindings.push_back(std::move(binding));
      continue;
    }
    if (isIdent("free_var")) {
      Binding binding;
      binding.kind = Binding::FreeVar;
      binding.loc = tok().loc;
      consume();
      if (!is(Tok::LocalVar))
        return errorHere("expected a variable ('%name') after 'free_var'");
      binding.name = tok().spelling.str();
      consume();
      if (!expect(Tok::Colon, "after the free variable"))
        return false;
      TypeNode type;
      if (!parseType(type))
        return false;
      binding.type = std::move(type);
      if (!expect(Tok::Semi, "after the free variable"))
        return false;
      seq.bindings.push_back(std::move(binding));
      continue;
    }
    if (is(Tok::LocalVar) && peekTok().kind == Tok::Equal) {
      Binding binding;
      binding.kind = Binding::Graph;
      binding.loc = tok().loc;
      binding.name = tok().spelling.str();
      consume();
      consume();
      if (!parseExpr(binding.value) ||
          !expect(Tok::Semi, "after the bound value"))
        return false;
      seq.bindings.push_back(std::move(binding));
      continue;
    }
    if (is(terminator))
      return errorHere(seq.bindings.empty()
                           ? "expected an expression"
                           : "expected the result expression after the last "
                             "binding");
    ExprPtr result;
    if (!parseExpr(result))
      return false;
    seq.args.push_back(std::move(result));
    if (!is(terminator)) {
      if (is(Tok::Semi))
        return errorHere("unexpected ';' after the result expression");
      return errorHere(llvm::Twine("expected ") + kindName(terminator) +
                       " after the result expression, found " +
                       describe(tok()));
    }
    return true;
  }
}

void Parser::attachTypeComment(Expr &expr) {
  if (pos == 0 || expr.annotatedType)
    return;
  StringRef text = tokens[pos - 1].typeComment;
  if (text.empty())
    return;
  if (std::optional<TypeNode> type = parseTypeComment(text))
    expr.annotatedType = std::move(type);
}

bool Parser::parseExpr(ExprPtr &result) {
  DepthGuard guard(depth);
  if (depth > kMaxDepth)
    return errorHere("expression nested too deeply");
  if (!parsePrimary(result))
    return false;
  attachTypeComment(*result);
  // Postfix: calls and projections. Each one nests the tree a level deeper.
  unsigned postfix = 0;
  while (true) {
    if ((is(Tok::LParen) || is(Tok::Dot)) && depth + ++postfix > kMaxDepth)
      return errorHere("expression nested too deeply");
    if (is(Tok::LParen)) {
      auto call = std::make_unique<Expr>(Expr::Call, tok().loc);
      if (result->kind == Expr::GlobalVar) {
        call->callee = Expr::GlobalCallee;
        call->name = result->name;
        call->loc = result->loc;
      } else {
        call->callee = Expr::ValueCallee;
      }
      consume();
      if (!parseCallArgs(*call))
        return false;
      if (call->callee == Expr::ValueCallee)
        call->args.push_back(std::move(result));
      result = std::move(call);
      attachTypeComment(*result);
      continue;
    }
    if (is(Tok::Dot)) {
      SMLoc loc = tok().loc;
      consume();
      if (!is(Tok::Int) || tok().intValue < 0)
        return errorHere("expected a tuple index after '.'");
      auto proj = std::make_unique<Expr>(Expr::Project, loc);
      proj->index = tok().intValue;
      consume();
      proj->args.push_back(std::move(result));
      result = std::move(proj);
      attachTypeComment(*result);
      continue;
    }
    return true;
  }
}

bool Parser::parsePrimary(ExprPtr &result) {
  const Token &t = tok();
  switch (t.kind) {
  case Tok::LocalVar:
    result = std::make_unique<Expr>(Expr::LocalVar, t.loc);
    result->name = t.spelling.str();
    consume();
    return true;
  case Tok::GlobalVar:
    result = std::make_unique<Expr>(Expr::GlobalVar, t.loc);
    result->name = t.spelling.str();
    consume();
    return true;
  case Tok::Int:
  case Tok::Float:
    result = std::make_unique<Expr>(Expr::Literal, t.loc);
    result->isFloat = t.kind == Tok::Float;
    result->intValue = t.intValue;
    result->floatValue = t.floatValue;
    result->dtype = t.dtype;
    consume();
    return true;
  case Tok::LParen: {
    SMLoc loc = t.loc;
    consume();
    auto tuple = std::make_unique<Expr>(Expr::Tuple, loc);
    if (consumeIf(Tok::RParen)) {
      result = std::move(tuple);
      return true;
    }
    ExprPtr first;
    if (!parseExpr(first))
      return false;
    if (consumeIf(Tok::RParen)) {
      result = std::move(first); // parenthesized expression
      return true;
    }
    tuple->args.push_back(std::move(first));
    while (true) {
      if (!expect(Tok::Comma, "or ')' in the tuple"))
        return false;
      if (consumeIf(Tok::RParen))
        break;
      ExprPtr field;
      if (!parseExpr(field))
        return false;
      tuple->args.push_back(std::move(field));
      if (consumeIf(Tok::RParen))
        break;
    }
    result = std::move(tuple);
    return true;
  }
  case Tok::LBrace: {
    // A nested scope `{ bindings; result }`.
    auto seq = std::make_unique<Expr>(Expr::Seq, t.loc);
    consume();
    if (!parseSeq(*seq, Tok::RBrace))
      return false;
    consume();
    result = std::move(seq);
    return true;
  }
  case Tok::Ident: {
    StringRef name = t.spelling;
    if (name == "True" || name == "False") {
      result = std::make_unique<Expr>(Expr::Literal, t.loc);
      result->dtype = "bool";
      result->intValue = name == "True";
      consume();
      return true;
    }
    if (name == "let") {
      // A `let` chain in expression position.
      auto seq = std::make_unique<Expr>(Expr::Seq, t.loc);
      // parseSeq stops at the first token that cannot continue the result
      // expression; here that is whatever encloses the let.
      Binding binding;
      binding.kind = Binding::Let;
      binding.loc = t.loc;
      consume();
      if (!is(Tok::LocalVar))
        return errorHere("expected a variable ('%name') after 'let'");
      binding.name = tok().spelling.str();
      consume();
      if (consumeIf(Tok::Colon)) {
        TypeNode type;
        if (!parseType(type))
          return false;
        binding.type = std::move(type);
      }
      if (!expect(Tok::Equal, "in 'let' binding") ||
          !parseExpr(binding.value) ||
          !expect(Tok::Semi, "after the 'let' value"))
        return false;
      seq->bindings.push_back(std::move(binding));
      ExprPtr body;
      if (!parseExpr(body))
        return false;
      seq->args.push_back(std::move(body));
      result = std::move(seq);
      return true;
    }
    if (name == "meta") {
      SMLoc loc = t.loc;
      consume();
      if (!expect(Tok::LBracket, "after 'meta'"))
        return false;
      if (!is(Tok::Ident))
        return errorHere("expected a metadata kind such as 'relay.Constant'");
      std::string kind = tok().spelling.str();
      consume();
      if (!expect(Tok::RBracket, "after the metadata kind") ||
          !expect(Tok::LBracket, "before the metadata index"))
        return false;
      if (!is(Tok::Int) || tok().intValue < 0)
        return errorHere("expected a non-negative metadata index");
      result = std::make_unique<Expr>(Expr::Meta, loc);
      result->name = kind;
      result->index = tok().intValue;
      consume();
      return expect(Tok::RBracket, "after the metadata index");
    }
    if (name == "fn")
      return errorHere("function literals ('fn') are not supported; define "
                       "the function with 'def @name' instead");
    if (name == "if" || name == "match" || name == "ref" ||
        name == "ref_read" || name == "ref_write")
      return errorHere("'" + name + "' expressions are not supported");
    if (name == "None" || name == "free_var" || name == "def")
      return errorHere("unexpected '" + name + "' in an expression");
    if (peekTok().kind != Tok::LParen)
      return errorHere("expected '(' after operator '" + name +
                       "' (operators can only be called)");
    auto call = std::make_unique<Expr>(Expr::Call, t.loc);
    call->callee = Expr::OpCallee;
    call->name = name.str();
    consume();
    consume();
    if (!parseCallArgs(*call))
      return false;
    result = std::move(call);
    return true;
  }
  case Tok::String:
    return errorHere("string literals are only allowed as operator attributes");
  default:
    return errorHere("expected an expression, found " + describe(t));
  }
}

bool Parser::parseCallArgs(Expr &call) {
  // After '('.
  if (consumeIf(Tok::RParen))
    return true;
  while (true) {
    if (is(Tok::Ident) && peekTok().kind == Tok::Equal) {
      std::string key = tok().spelling.str();
      for (auto &kv : call.attrs)
        if (kv.first == key)
          return errorHere("attribute '" + key + "' given twice");
      consume();
      consume();
      AttrNode value;
      if (!parseAttrValue(value))
        return false;
      call.attrs.emplace_back(std::move(key), std::move(value));
    } else {
      if (!call.attrs.empty())
        return errorHere("positional argument after attributes");
      ExprPtr arg;
      if (!parseExpr(arg))
        return false;
      call.args.push_back(std::move(arg));
    }
    if (consumeIf(Tok::RParen))
      return true;
    if (!expect(Tok::Comma, "or ')' in the argument list"))
      return false;
    if (consumeIf(Tok::RParen))
      return true;
  }
}

bool Parser::parseAttrValue(AttrNode &attr, unsigned nesting) {
  attr.loc = tok().loc;
  if (nesting > kMaxDepth)
    return errorHere("attribute value nested too deeply");
  switch (tok().kind) {
  case Tok::Int:
    attr.kind = AttrNode::Int;
    attr.intValue = tok().intValue;
    consume();
    return true;
  case Tok::Float:
    attr.kind = AttrNode::Float;
    attr.floatValue = tok().floatValue;
    consume();
    return true;
  case Tok::String:
    attr.kind = AttrNode::String;
    attr.stringValue = tok().stringValue;
    consume();
    return true;
  case Tok::Ident:
    if (tok().spelling == "True" || tok().spelling == "False") {
      attr.kind = AttrNode::Bool;
      attr.boolValue = tok().spelling == "True";
      consume();
      return true;
    }
    if (tok().spelling == "None") {
      attr.kind = AttrNode::None;
      consume();
      return true;
    }
    return errorHere("expected an attribute value, found " + describe(tok()));
  case Tok::LBracket:
    attr.kind = AttrNode::List;
    consume();
    if (consumeIf(Tok::RBracket))
      return true;
    while (true) {
      AttrNode element;
      if (!parseAttrValue(element, nesting + 1))
        return false;
      attr.elements.push_back(std::move(element));
      if (consumeIf(Tok::RBracket))
        return true;
      if (!expect(Tok::Comma, "or ']' in the list"))
        return false;
      if (consumeIf(Tok::RBracket))
        return true;
    }
  default:
    return errorHere("expected an attribute value, found " + describe(tok()));
  }
}

bool Parser::parseType(TypeNode &type, unsigned nesting) {
  type.loc = tok().loc;
  if (nesting > kMaxDepth)
    return errorHere("type nested too deeply");
  if (is(Tok::LParen)) {
    type.kind = TypeNode::Tuple;
    consume();
    if (consumeIf(Tok::RParen))
      return true;
    while (true) {
      TypeNode element;
      if (!parseType(element, nesting + 1))
        return false;
      type.elements.push_back(std::move(element));
      if (consumeIf(Tok::RParen))
        return true;
      if (!expect(Tok::Comma, "or ')' in the tuple type"))
        return false;
      if (consumeIf(Tok::RParen))
        return true;
    }
  }
  if (!is(Tok::Ident))
    return errorHere("expected a type, found " + describe(tok()));
  StringRef name = tok().spelling;
  if (name == "Tensor") {
    type.kind = TypeNode::Tensor;
    consume();
    if (!expect(Tok::LBracket, "after 'Tensor'"))
      return false;
    auto parseDim = [&]() {
      if (is(Tok::Int)) {
        if (tok().intValue < 0)
          return errorHere("negative dimension");
        type.shape.push_back(tok().intValue);
      } else if (is(Tok::Question) || is(Tok::Ident)) {
        // `?` (Any) and symbolic dimensions are dynamic.
        type.shape.push_back(mlir::ShapedType::kDynamic);
      } else {
        return errorHere("expected a dimension, found " + describe(tok()));
      }
      consume();
      return true;
    };
    if (consumeIf(Tok::LParen)) {
      if (!consumeIf(Tok::RParen)) {
        while (true) {
          if (!parseDim())
            return false;
          if (consumeIf(Tok::RParen))
            break;
          if (!expect(Tok::Comma, "or ')' in the shape"))
            return false;
          if (consumeIf(Tok::RParen))
            break;
        }
      }
    } else if (!parseDim()) {
      return false;
    }
    if (!expect(Tok::Comma, "between the shape and the dtype"))
      return false;
    if (!is(Tok::Ident))
      return errorHere("expected a dtype, found " + describe(tok()));
    type.dtype = tok().spelling.str();
    consume();
    return expect(Tok::RBracket, "to close 'Tensor['");
  }
  if (name == "fn")
    return errorHere("function types are not supported");
  // A bare dtype: a 0-d tensor.
  type.kind = TypeNode::Tensor;
  type.dtype = name.str();
  consume();
  return true;
}

std::optional<TypeNode> Parser::parseTypeComment(StringRef text) {
  // The comment text lives in the same buffer; a quiet sub-parser reads it.
  // Malformed annotations are ignored: they are comments.
  std::vector<Token> tokens;
  bool sawMetadata = false;
  SMLoc metaLoc;
  bool failed = false;
  auto onError = [&](SMLoc, const llvm::Twine &) { failed = true; };
  Lexer lexer(text, onError);
  if (!lexer.lexAll(tokens, sawMetadata, metaLoc) || failed)
    return std::nullopt;
  llvm::SourceMgr unused;
  Parser parser(unused, nullptr, std::move(tokens));
  parser.quiet = true;
  TypeNode type;
  if (!parser.parseType(type))
    return std::nullopt;
  return type;
}

} // namespace

std::optional<ModuleNode>
mlc::relay_text::parseRelayText(llvm::SourceMgr &sourceMgr,
                                mlir::MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::vector<Token> tokens;
  ModuleNode module;
  bool ok = true;
  auto onError = [&](SMLoc loc, const llvm::Twine &msg) {
    ok = false;
    mlir::emitError(getLocation(sourceMgr, context, loc), msg);
  };
  Lexer lexer(buffer->getBuffer(), onError);
  if (!lexer.lexAll(tokens, module.hasMetadataSection, module.metadataLoc) ||
      !ok)
    return std::nullopt;
  Parser parser(sourceMgr, context, std::move(tokens));
  if (!parser.parseModule(module))
    return std::nullopt;
  return module;
}
